import { errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { deviceDetailQuery } from '../../../features/device/api';
import { DeviceFormView } from '../../../features/device/device-form';
import { messageOf } from '../../../lib/api-client';
import { useSelectedId } from '../../../lib/use-selected-id';

export function Component() {
  return (
    <>
      <PageHeader title="GPS端末編集" />
      <EditDevice />
    </>
  );
}

function EditDevice() {
  const id = useSelectedId('car_device_id');
  const q = useQuery(deviceDetailQuery(id));
  const d = q.data;
  if (!id)
    return (
      <Alert color="red" role="alert">
        {errorMessages.notFound}
      </Alert>
    );
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(q.error, errorMessages.fetchFailed)}
      </Alert>
    );
  if (!d) return <Skeleton h={320} maw={880} />;
  return (
    <DeviceFormView
      mode="edit"
      initial={{
        car_device_id: d.car_device_id,
        password: '',
        ipaddr: d.ipaddr,
        macaddr: d.macaddr,
        car_type: d.car_type,
        car_data_id: d.car_data_id,
        protocol: d.protocol,
        cmd_cut_text: d.cmd_cut_text,
        cmd_restore_text: d.cmd_restore_text,
      }}
    />
  );
}
