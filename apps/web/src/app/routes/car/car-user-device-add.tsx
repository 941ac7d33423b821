import { errorMessages } from '@fleet/contract';
import { Skeleton } from '@mantine/core';
import { useState } from 'react';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { useCompanyOptions } from '../../../components/company-select';
import { PageHeader } from '../../../components/page-header';
import { CarFields } from '../../../features/car/car-fields';
import { CarUserFields } from '../../../features/car-user/car-user-fields';
import { emptyCarUser } from '../../../features/car-user/car-user-form';
import { DeviceFields } from '../../../features/device/device-fields';
import { emptyDevice } from '../../../features/device/device-form';
import { useNewRegistrationIds } from '../../../features/registration/api';
import { RegistrationWizard } from '../../../features/registration/registration-wizard';
import { registrationTexts } from '../../../features/registration/texts';
import { shellTexts } from '../../../lib/texts';

/** `/car/car_user_device_add`: the registration wizard, composed from the customer, terminal and vehicle fields. */
export function Component() {
  return (
    <>
      <PageHeader title={shellTexts.titles.wizard} description={registrationTexts.description} />
      <Wizard />
    </>
  );
}

function Wizard() {
  const [run, setRun] = useState(0);
  const companies = useCompanyOptions();
  const ids = useNewRegistrationIds(run);
  return (
    <QueryState query={ids} fallback={errorMessages.idGenerationFailed} loading={<Skeleton h={480} maw={960} />}>
      {({ user_id, car_device_id, car_id }) => (
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
          onRestart={() => setRun((r) => r + 1)}
        />
      )}
    </QueryState>
  );
}
