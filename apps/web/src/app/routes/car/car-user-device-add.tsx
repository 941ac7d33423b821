import { deviceExistCheck, errorMessages, userExistCheck } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCompanyOptions } from '../../../components/company-select';
import { PageHeader } from '../../../components/page-header';
import { CarFields } from '../../../features/car/car-fields';
import { newCarIdQuery } from '../../../features/car/form-api';
import { CarUserFields } from '../../../features/car-user/car-user-fields';
import { emptyCarUser } from '../../../features/car-user/car-user-form';
import { DeviceFields } from '../../../features/device/device-fields';
import { emptyDevice } from '../../../features/device/device-form';
import { RegistrationWizard } from '../../../features/registration/registration-wizard';
import { messageOf } from '../../../lib/api-client';
import { shellTexts } from '../../../lib/texts';
import { generateCheckedId } from '../../../lib/use-id-generator';

/** `/car/car_user_device_add`: the registration wizard, composed from the customer, terminal and vehicle fields. */
export function Component() {
  return (
    <>
      <PageHeader
        title={shellTexts.titles.wizard}
        description="新しい顧客・GPS端末・車両を1台分、順に入力してまとめて登録します。最後に「この内容で登録する」を押すまで何も登録されません。"
      />
      <Wizard />
    </>
  );
}

function Wizard() {
  const qc = useQueryClient();
  const [run, setRun] = useState(0);
  const companies = useCompanyOptions();
  const ids = useQuery({
    queryKey: ['registration', 'new-ids', run],
    queryFn: async () => ({
      user_id: await generateCheckedId(userExistCheck, 'user_id'),
      car_device_id: await generateCheckedId(deviceExistCheck, 'car_device_id'),
      car_id: await qc.fetchQuery(newCarIdQuery()),
    }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  if (ids.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(ids.error, errorMessages.idGenerationFailed)}
      </Alert>
    );
  if (!ids.data) return <Skeleton h={480} maw={960} />;
  const { user_id, car_device_id, car_id } = ids.data;
  return (
    <RegistrationWizard
      key={run}
      initial={{
        user: emptyCarUser(user_id, null),
        device: { ...emptyDevice(car_device_id), password: '' },
        car: {
          car_id,
          car_number: '',
          car_type: '',
          car_vin: '',
          available_data: { lat_min: null, lat_max: null, lng_min: null, lng_max: null },
        },
      }}
      steps={{
        user: <CarUserFields prefix="user." mode="add" companies={companies.data ?? []} />,
        device: <DeviceFields prefix="device." mode="add" />,
        car: <CarFields prefix="car." />,
      }}
      onRestart={() => {
        qc.removeQueries({ queryKey: newCarIdQuery().queryKey });
        setRun((r) => r + 1);
      }}
    />
  );
}
