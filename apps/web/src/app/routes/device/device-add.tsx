import { deviceExistCheck, errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/page-header';
import { DeviceFormView, emptyDevice } from '../../../features/device/device-form';
import { generateCheckedId } from '../../../lib/use-id-generator';

export function Component() {
  return (
    <>
      <PageHeader title="GPS端末登録" />
      <NewDevice />
    </>
  );
}

function NewDevice() {
  const id = useQuery({
    queryKey: ['device', 'new-id'],
    queryFn: () => generateCheckedId(deviceExistCheck, 'car_device_id'),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  if (id.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessages.idGenerationFailed}
      </Alert>
    );
  if (!id.data) return <Skeleton h={320} maw={880} />;
  return <DeviceFormView mode="add" initial={emptyDevice(id.data)} />;
}
