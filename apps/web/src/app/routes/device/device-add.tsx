import { errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useNewDeviceId } from '../../../features/device/api';
import { DeviceFormView, emptyDevice } from '../../../features/device/device-form';

export function Component() {
  const id = useNewDeviceId();
  return (
    <>
      <PageHeader title="GPS端末登録" />
      <QueryState query={id} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={320} maw={880} />}>
        {(newId) => <DeviceFormView mode="add" initial={emptyDevice(newId)} />}
      </QueryState>
    </>
  );
}
