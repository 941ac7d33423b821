import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconCar, IconCircleCheck, IconDeviceMobile, IconPlus, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { registrationTexts } from './texts';

const T = registrationTexts.done;

export interface Registered {
  user_id: string;
  car_device_id: string;
  car_id: string;
  car_data_id: string;
}

/** The last step: what was registered, with links to each record. */
export function WizardDone({ registered: r, onRestart }: { registered: Registered; onRestart(): void }) {
  return (
    <Stack gap="md">
      <Alert color="green" icon={<IconCircleCheck size={18} />} role="status" title={T.title}>
        {T.message(r)}
      </Alert>
      <Group gap="sm">
        <Button component={Link} to={paths.car.detail(r.car_id, r.car_data_id)} leftSection={<IconCar size={16} />}>
          {T.toCar}
        </Button>
        <Button
          component={Link}
          to={paths.car.userDetail(r.user_id)}
          variant="light"
          leftSection={<IconUser size={16} />}
        >
          {T.toUser}
        </Button>
        <Button
          component={Link}
          to={paths.device.detail(r.car_device_id)}
          variant="light"
          leftSection={<IconDeviceMobile size={16} />}
        >
          {T.toDevice}
        </Button>
        <Button variant="default" ml="auto" leftSection={<IconPlus size={16} />} onClick={onRestart}>
          {T.again}
        </Button>
      </Group>
    </Stack>
  );
}
