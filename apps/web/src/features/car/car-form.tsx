import {
  CarForm,
  errorMessages,
  type CarDetail,
  type CarFormInput,
  type CarUserRow,
  type DeviceRow,
} from '@fleet/contract';
import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { FormSection } from '../../components/edit-shell/form-section';
import { FormShell } from '../../components/edit-shell/form-shell';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';
import { CarFields } from './car-fields';
import { useAddCar, useUpdateCar } from './form-api';
import { carTexts } from './texts';
import { CustomerPicker, DevicePicker } from './pickers';

const noArea = { lat_min: null, lat_max: null, lng_min: null, lng_max: null };

export const emptyCar = (car_id: string): CarFormInput => ({
  car_id,
  car_number: '',
  car_type: '',
  car_vin: '',
  user_id: '',
  car_device_id: null,
  available_data: noArea,
});

/** The form values of a loaded vehicle, and its customer and terminal as the pickers show them. */
export function carFormOf(c: CarDetail): {
  values: CarFormInput;
  customer: CarUserRow | null;
  device: DeviceRow | null;
} {
  return {
    values: {
      car_id: c.car_id,
      car_number: c.car_number,
      car_type: c.car_type,
      car_vin: c.car_vin,
      user_id: c.user_id ?? '',
      car_device_id: c.car_device_id,
      available_data: c.available_data ?? noArea,
    },
    customer: c.user ? { ...c.user, company_id: c.company_id, company_name: c.company_name, car_id: c.car_id } : null,
    device: c.device ? { ...c.device, car_id: c.car_id } : null,
  };
}

/** Register or edit a vehicle: its fields, its customer and its terminal (pickers search the server). */
export function CarFormView({
  mode,
  initial,
  customer,
  device,
  deviceLocked,
}: {
  mode: 'add' | 'edit';
  initial: CarFormInput;
  customer?: CarUserRow | null;
  device?: DeviceRow | null;
  deviceLocked: boolean;
}) {
  const add = useAddCar();
  const update = useUpdateCar();
  const navigate = useNavigate();
  return (
    <FormShell
      schema={CarForm}
      defaultValues={initial}
      failureMessage={mode === 'add' ? errorMessages.addFailed : errorMessages.updateFailed}
      backTo={mode === 'add' ? paths.car.list : paths.car.detail(initial.car_id)}
      submitLabel={mode === 'add' ? shellTexts.form.add : shellTexts.form.update}
      onSubmit={async (values) => {
        await (mode === 'add' ? add : update).mutateAsync(values);
        await navigate(paths.car.detail(values.car_id));
      }}
    >
      <Stack gap="lg">
        <CarFields>
          <FormSection title={carTexts.form.customerAndDevice} cols={1}>
            <CustomerPicker current={customer} />
            <DevicePicker current={device} locked={deviceLocked} />
          </FormSection>
        </CarFields>
      </Stack>
    </FormShell>
  );
}
