import {
  deviceLabels as L,
  deviceList,
  deviceListCount,
  deviceSearchColumns,
  terminalProtocolLabels,
  terminalProtocolShortLabels,
} from '@fleet/contract';
import { Anchor, Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell } from '../../../components/list-shell/list-shell';
import { stateColumn } from '../../../components/list-shell/list-table';
import { NoWrap } from '../../../components/list-shell/no-wrap';
import { PageHeader } from '../../../components/page-header';
import { deviceKeys } from '../../../features/device/api';
import { deviceTexts } from '../../../features/device/texts';
import { paths } from '../../../lib/paths';

export function Component() {
  return (
    <>
      <PageHeader
        title={deviceTexts.list.title}
        actions={
          <Button component={Link} to={paths.device.add} leftSection={<IconPlus size={16} />}>
            {deviceTexts.list.add}
          </Button>
        }
      />
      <ListShell
        id={deviceKeys.all[0]}
        countCall={deviceListCount}
        listCall={deviceList}
        searchColumns={deviceSearchColumns}
        defaultSort={{ item: 'car_device_id' }}
        rowKey={(r) => r.car_device_id}
        rowLink={(r) => paths.device.detail(r.car_device_id)}
        columns={[
          { sortKey: 'car_device_id', label: L.car_device_id, render: (r) => <NoWrap>{r.car_device_id}</NoWrap> },
          { sortKey: 'car_data_id', label: L.car_data_id, render: (r) => r.car_data_id },
          { sortKey: 'car_type', label: L.car_type, render: (r) => r.car_type },
          {
            label: L.protocol,
            render: (r) => (
              <Badge
                variant={r.protocol === 'json' ? 'outline' : 'light'}
                color={r.protocol === 'json' ? 'gray' : 'teal'}
                radius="sm"
                tt="none"
                title={terminalProtocolLabels[r.protocol]}
              >
                {terminalProtocolShortLabels[r.protocol]}
              </Badge>
            ),
          },
          { sortKey: 'ipaddr', label: L.ipaddr, render: (r) => r.ipaddr },
          { sortKey: 'macaddr', label: L.macaddr, render: (r) => r.macaddr },
          {
            sortKey: 'car_id',
            label: L.car_id,
            render: (r) =>
              r.car_id ? (
                <Anchor component={Link} to={paths.car.detail(r.car_id, r.car_data_id)} size="sm">
                  {r.car_id}
                </Anchor>
              ) : (
                <Badge variant="outline" color="gray" radius="sm">
                  {deviceTexts.list.noCar}
                </Badge>
              ),
          },
          stateColumn,
        ]}
      />
    </>
  );
}
