import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconCar, IconCircleCheck, IconDeviceMobile, IconPlus, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';

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
      <Alert color="green" icon={<IconCircleCheck size={18} />} role="status" title="登録が完了しました">
        顧客 {r.user_id}、GPS端末 {r.car_device_id}、車両 {r.car_id} を登録しました。
      </Alert>
      <Group gap="sm">
        <Button component={Link} to={paths.car.detail(r.car_id, r.car_data_id)} leftSection={<IconCar size={16} />}>
          車両詳細へ
        </Button>
        <Button
          component={Link}
          to={paths.car.userDetail(r.user_id)}
          variant="light"
          leftSection={<IconUser size={16} />}
        >
          顧客詳細へ
        </Button>
        <Button
          component={Link}
          to={paths.device.detail(r.car_device_id)}
          variant="light"
          leftSection={<IconDeviceMobile size={16} />}
        >
          GPS端末詳細へ
        </Button>
        <Button variant="default" ml="auto" leftSection={<IconPlus size={16} />} onClick={onRestart}>
          続けて登録する
        </Button>
      </Group>
    </Stack>
  );
}
