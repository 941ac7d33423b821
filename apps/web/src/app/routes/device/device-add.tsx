import { errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useNewDeviceId } from '../../../features/device/api';
import { DeviceFormView, emptyDevice } from '../../../features/device/device-form';
import { deviceTexts } from '../../../features/device/texts';

export function Component() {
  const id = useNewDeviceId();
  return (
    <>
      <PageHeader title={deviceTexts.addTitle} />
      <QueryState query={id} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={320} maw={880} />}>
        {(newId) => <DeviceFormView mode="add" initial={emptyDevice(newId)} />}
      </QueryState>
    </>
  );
}
