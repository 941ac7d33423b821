import {
  carLabels,
  defaultCommandTexts,
  deviceLabels as L,
  deviceStateLabel,
  terminalProtocolLabels,
} from '@fleet/contract';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { DetailActions, DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { ConnectionBadge } from '../../../features/car/state-badges';
import { useDeleteDevice, useDeviceDetail } from '../../../features/device/api';
import { deviceTexts } from '../../../features/device/texts';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useRememberSelection, useSelection } from '../../../lib/use-selection';

export function Component() {
  const id = useSelection('car_device_id');
  const q = useDeviceDetail(id);
  const del = useDeleteDevice();
  const d = q.data;
  useRememberSelection({ car_device_id: d?.car_device_id });
  return (
    <>
      <PageHeader
        title={deviceTexts.detail.title}
        description={d ? deviceTexts.detail.heading(d.car_device_id, d.car_data_id) : undefined}
        actions={
          d && (
            <DetailActions
              isDelete={d.isDelete}
              editTo={paths.device.edit(d.car_device_id)}
              remove={{
                noun: deviceTexts.detail.noun,
                subject: deviceTexts.detail.subject(d.car_device_id),
                onToggle: () =>
                  del.mutateAsync({
                    car_device_id: d.car_device_id,
                    car_data_id: d.car_data_id,
                    isDelete: !d.isDelete,
                  }),
              }}
            />
          )
        }
      />
      <DetailShell
        query={q}
        missing={!id}
        rows={(d) => [
          { label: L.car_device_id, value: d.car_device_id },
          { label: L.car_data_id, value: d.car_data_id },
          { label: L.car_type, value: d.car_type },
          { label: L.protocol, value: terminalProtocolLabels[d.protocol] },
          ...(defaultCommandTexts[d.protocol]
            ? [
                {
                  label: L.cmd_cut_text,
                  value: d.cmd_cut_text || deviceTexts.byDefault(defaultCommandTexts[d.protocol]!.cut),
                },
                {
                  label: L.cmd_restore_text,
                  value: d.cmd_restore_text || deviceTexts.byDefault(defaultCommandTexts[d.protocol]!.restore),
                },
              ]
            : []),
          { label: L.ipaddr, value: d.ipaddr },
          { label: L.macaddr, value: d.macaddr },
          {
            label: L.car_id,
            value: d.car ? (
              <Anchor component={Link} to={paths.car.detail(d.car.car_id, d.car_data_id)} size="sm">
                {d.car.car_id}（{d.car.car_number}）
              </Anchor>
            ) : (
              deviceTexts.detail.noCar
            ),
          },
          {
            label: deviceTexts.detail.customer,
            value: d.car?.user_id ? (
              <Anchor component={Link} to={paths.car.userDetail(d.car.user_id)} size="sm">
                {d.car.user_id}
              </Anchor>
            ) : (
              ''
            ),
          },
          { label: carLabels.company_name, value: d.car?.company_name ?? '' },
          // The vehicle screens' rule: a terminal that sends no connection state is read from its last report's age.
          { label: deviceTexts.detail.connection, value: <ConnectionBadge state={d.latest} /> },
          { label: carLabels.device_state, value: deviceStateLabel(d.latest?.device_state) },
          { label: deviceTexts.detail.lastSeen, value: formatDateTime(d.latest?.last_seen_at) },
        ]}
      />
    </>
  );
}
