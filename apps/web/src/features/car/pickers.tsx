import {
  carLabels as L,
  carMessages,
  carUserLabels,
  carUserPickerSearchColumns,
  carUserSearchColumns,
  deviceLabels,
  deviceList,
  deviceListCount,
  devicePickerSearchColumns,
  deviceSearchColumns,
  userList,
  userListCount,
  type CarUserRow,
  type DeviceRow,
} from '@fleet/contract';
import { useFormContext } from 'react-hook-form';
import { RecordPickerField } from '../../components/record-picker/record-picker-field';
import { pickerSource, type PickerSource } from '../../components/record-picker/picker-modal';
import { carTexts } from './texts';

const T = carTexts.pickers;

/** Picker search columns keep their index in the list's full search columns (docs/product.md §3). */
const indexed = (all: readonly { key: string }[], picked: readonly { key: string; label: string }[]) =>
  picked.map((c) => ({ item: String(all.findIndex((a) => a.key === c.key)), label: c.label }));

const customerSource: PickerSource<CarUserRow> = pickerSource({
  countCall: userListCount,
  listCall: userList,
  searchColumns: indexed(carUserSearchColumns, carUserPickerSearchColumns),
  filter: { isRegistered: false },
  sort: 'user_id asc',
  rowKey: (r) => r.user_id,
  hint: T.customerHint,
  columns: [
    { label: carUserLabels.user_id, render: (r) => r.user_id },
    { label: T.customerName, render: (r) => `${r.first_name} ${r.name}` },
    { label: carUserLabels.company_name, render: (r) => r.company_name ?? T.headOffice },
    { label: carUserLabels.merchant, render: (r) => r.merchant },
  ],
});

const deviceSource: PickerSource<DeviceRow> = pickerSource({
  countCall: deviceListCount,
  listCall: deviceList,
  searchColumns: indexed(deviceSearchColumns, devicePickerSearchColumns),
  filter: { isRegistered: false },
  sort: 'car_device_id asc',
  rowKey: (r) => r.car_device_id,
  hint: T.deviceHint,
  columns: [
    { label: deviceLabels.car_device_id, render: (r) => r.car_device_id },
    { label: deviceLabels.car_data_id, render: (r) => r.car_data_id },
    { label: deviceLabels.car_type, render: (r) => r.car_type },
    { label: deviceLabels.ipaddr, render: (r) => r.ipaddr },
  ],
});

/** The vehicle's customer: one not yet on a vehicle, searched by id or name. */
export function CustomerPicker({ current }: { current?: CarUserRow | null }) {
  return (
    <RecordPickerField
      name="user_id"
      label={L.user_id}
      title={T.customerTitle}
      required
      current={current}
      source={customerSource}
      describe={(r) => T.customer(r)}
      placeholder={T.customerPlaceholder}
    />
  );
}

/** The vehicle's terminal: a free one, searched by id or vehicle type; only the super admin may change it. */
export function DevicePicker({ current, locked }: { current?: DeviceRow | null; locked: boolean }) {
  const form = useFormContext();
  return (
    <RecordPickerField
      name="car_device_id"
      label={L.car_device_id}
      title={T.deviceTitle}
      current={current}
      source={deviceSource}
      disabled={locked}
      description={locked ? carMessages.deviceChangeForbidden : T.deviceLater}
      describe={(r) => T.device(r)}
      placeholder={T.devicePlaceholder}
      onPicked={(r) => {
        if (r?.car_type && !form.getValues('car_type')) form.setValue('car_type', r.car_type);
      }}
    />
  );
}
