import {
  connectionLabel,
  defaultCommandTexts,
  deviceLabels as L,
  deviceStateLabel,
  errorMessages,
  terminalProtocolLabels,
} from '@fleet/contract';
import { Anchor, Badge, Button, Group } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DeleteRestoreButton } from '../../../components/edit-shell/delete-restore-button';
import { DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { deviceDetailQuery, useDeleteDevice } from '../../../features/device/api';
import { deviceTexts } from '../../../features/device/texts';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useRememberSelection, useSelectedId } from '../../../lib/use-selected-id';

export function Component() {
  const id = useSelectedId('car_device_id');
  const q = useQuery(deviceDetailQuery(id));
  const del = useDeleteDevice();
  const d = q.data;
  useRememberSelection('car_device_id', d?.car_device_id);
  return (
    <>
      <PageHeader
        title="GPS端末詳細"
        description={d ? `${d.car_device_id}（IMEI ${d.car_data_id}）` : undefined}
        actions={
          d && (
            <Group gap="xs">
              {!d.isDelete && (
                <Button component={Link} to={paths.device.edit(d.car_device_id)} leftSection={<IconEdit size={16} />}>
                  編集
                </Button>
              )}
              <DeleteRestoreButton
                isDelete={d.isDelete}
                noun="GPS端末"
                subject={`端末 ${d.car_device_id} `}
                onToggle={() =>
                  del.mutateAsync({ car_device_id: d.car_device_id, car_data_id: d.car_data_id, isDelete: !d.isDelete })
                }
              />
            </Group>
          )
        }
      />
      <DetailShell
        loading={!!id && q.isPending}
        error={!id ? errorMessages.notFound : q.isError ? messageOf(q.error, errorMessages.fetchFailed) : null}
        rows={
          d
            ? [
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
                    '未登録'
                  ),
                },
                {
                  label: '顧客',
                  value: d.car?.user_id ? (
                    <Anchor component={Link} to={paths.car.userDetail(d.car.user_id)} size="sm">
                      {d.car.user_id}
                    </Anchor>
                  ) : (
                    ''
                  ),
                },
                { label: '所属会社', value: d.car?.company_name ?? '' },
                { label: '接続状態', value: connectionLabel(d.latest?.connection) },
                { label: '端末状態', value: deviceStateLabel(d.latest?.device_state) },
                { label: '最終通信日時', value: formatDateTime(d.latest?.last_seen_at) },
                {
                  label: '状態',
                  value: d.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>,
                },
                { label: '登録日時', value: formatDateTime(d.created_at) },
                { label: '更新日時', value: formatDateTime(d.updated_at) },
              ]
            : []
        }
      />
    </>
  );
}
