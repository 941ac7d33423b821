import { DeviceEditForm, DeviceForm, deviceMessages, errorMessages, type DeviceEditFormInput } from '@fleet/contract';
import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { FormShell } from '../../components/edit-shell/form-shell';
import { ApiClientError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';
import { useAddDevice, useUpdateDevice } from './api';
import { DeviceFields } from './device-fields';

export const emptyDevice = (car_device_id: string): DeviceEditFormInput => ({
  car_device_id,
  password: '',
  ipaddr: '',
  macaddr: '',
  car_type: '',
  car_data_id: '',
  protocol: 'json',
  cmd_cut_text: '',
  cmd_restore_text: '',
});

/**
 * docs/product.md §8: a server that answers 'already registered' for the IMEI gets the
 * entered-IMEI-in-use message under the IMEI field (whatever key it used).
 */
export function imeiConflict(e: unknown, field = 'car_data_id'): unknown {
  if (!(e instanceof ApiClientError) || e.status !== 409 || e.errors[field]) return e;
  const aboutImei = /already registered|IMEI/i.test(e.message) && Object.keys(e.errors).length === 0;
  return aboutImei
    ? new ApiClientError(e.status, e.code, deviceMessages.imeiInUse, { [field]: deviceMessages.imeiInUse })
    : e;
}

/** Register or edit a GPS terminal; on edit an empty password keeps the current secret. */
export function DeviceFormView({ mode, initial }: { mode: 'add' | 'edit'; initial: DeviceEditFormInput }) {
  const add = useAddDevice();
  const update = useUpdateDevice();
  const navigate = useNavigate();
  return (
    <FormShell
      schema={mode === 'add' ? DeviceForm : DeviceEditForm}
      defaultValues={initial}
      failureMessage={mode === 'add' ? errorMessages.addFailed : errorMessages.updateFailed}
      backTo={mode === 'add' ? paths.device.list : paths.device.detail(initial.car_device_id)}
      submitLabel={mode === 'add' ? shellTexts.form.add : shellTexts.form.update}
      onSubmit={async (values) => {
        try {
          await (mode === 'add' ? add.mutateAsync(values) : update.mutateAsync(values));
        } catch (e) {
          throw imeiConflict(e);
        }
        await navigate(paths.device.detail(values.car_device_id));
      }}
    >
      <Stack gap="lg">
        <DeviceFields mode={mode} />
      </Stack>
    </FormShell>
  );
}
