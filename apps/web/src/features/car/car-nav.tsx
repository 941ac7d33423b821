import { areaKindLabels } from '@fleet/contract';
import { Tabs } from '@mantine/core';
import {
  IconEngine,
  IconInfoCircle,
  IconList,
  IconMapPin,
  IconReportAnalytics,
  IconRoute,
  IconShieldOff,
  IconTimeline,
} from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePhone } from '../../lib/use-phone';
import { paths } from '../../lib/paths';
import { carTexts } from './texts';

const T = carTexts.nav;

/** The tabs shared by every vehicle screen (detail, logs, route, engine, areas). */
export function CarNav({ carId, carDataId }: { carId: string; carDataId: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = [
    { value: paths.car.detail(carId, carDataId), label: T.detail, icon: <IconInfoCircle size={16} /> },
    { value: paths.car.logs(carDataId), label: T.logs, icon: <IconList size={16} /> },
    { value: paths.car.travelRoute(carId, carDataId), label: T.travelRoute, icon: <IconRoute size={16} /> },
    { value: paths.car.dailyReport(carId, carDataId), label: T.dailyReport, icon: <IconReportAnalytics size={16} /> },
    { value: paths.car.timeline(carId, carDataId), label: T.timeline, icon: <IconTimeline size={16} /> },
    { value: paths.car.engine(carId, carDataId), label: T.engine, icon: <IconEngine size={16} /> },
    { value: paths.car.warningArea(carId, carDataId), label: areaKindLabels.available, icon: <IconMapPin size={16} /> },
    {
      value: paths.car.forbiddenArea(carId, carDataId),
      label: areaKindLabels.disable,
      icon: <IconShieldOff size={16} />,
    },
  ];
  // Screens are told apart by their route segment (/car/<segment>/...), whatever ids follow it.
  const segment = (p: string) => p.split('/')[2];
  const active = tabs.find((t) => segment(t.value) === segment(pathname))?.value ?? tabs[0]!.value;
  // A phone shows the tabs as one row that scrolls sideways (four rows of tabs otherwise), the active one in view.
  const phone = usePhone();
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!phone || !list.current) return;
    const tab = list.current.querySelector<HTMLElement>('[aria-selected="true"]');
    if (tab) list.current.scrollLeft = tab.offsetLeft - (list.current.clientWidth - tab.offsetWidth) / 2;
  }, [phone, active]);
  return (
    <Tabs value={active} onChange={(v) => v && navigate(v)} mb="md" keepMounted={false}>
      <Tabs.List
        ref={list}
        style={
          phone ? { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none' } : undefined
        }
      >
        {tabs.map((t) => (
          <Tabs.Tab key={t.value} value={t.value} leftSection={t.icon} style={phone ? { flexShrink: 0 } : undefined}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
