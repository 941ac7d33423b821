import { Tabs } from '@mantine/core';
import { IconEngine, IconInfoCircle, IconList, IconMapPin, IconRoute, IconShieldOff } from '@tabler/icons-react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../lib/paths';

/** The tabs shared by every vehicle screen (detail, logs, route, engine, areas). */
export function CarNav({ carId, carDataId }: { carId: string; carDataId: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = [
    { value: paths.car.detail(carId, carDataId), label: '車両詳細', icon: <IconInfoCircle size={16} /> },
    { value: paths.car.logs(carDataId), label: 'データログ', icon: <IconList size={16} /> },
    { value: paths.car.travelRoute(carId, carDataId), label: '走行ルート', icon: <IconRoute size={16} /> },
    { value: paths.car.engine(carId, carDataId), label: 'エンジン制御', icon: <IconEngine size={16} /> },
    { value: paths.car.warningArea(carId, carDataId), label: '利用可能エリア', icon: <IconMapPin size={16} /> },
    { value: paths.car.forbiddenArea(carId, carDataId), label: '禁止エリア', icon: <IconShieldOff size={16} /> },
  ];
  // Screens are told apart by their route segment (/car/<segment>/...), whatever ids follow it.
  const segment = (p: string) => p.split('/')[2];
  const active = tabs.find((t) => segment(t.value) === segment(pathname))?.value ?? tabs[0]!.value;
  return (
    <Tabs value={active} onChange={(v) => v && navigate(v)} mb="md" keepMounted={false}>
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab key={t.value} value={t.value} leftSection={t.icon}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
