import {
  capabilities,
  carUserLabels as L,
  customerStates,
  errorMessages,
  genderLabel,
  paymentDelays,
} from '@fleet/contract';
import { Badge, Button, Group } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DeleteRestoreButton } from '../../../components/edit-shell/delete-restore-button';
import { DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { StatusBadge } from '../../../components/status-badge';
import { carUserDetailQuery, useDeleteCarUser } from '../../../features/car-user/api';
import { CarUserCars } from '../../../features/car-user/car-user-cars';
import { messageOf } from '../../../lib/api-client';
import { formatBirthday, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';
import { useRememberSelection, useSelectedId } from '../../../lib/use-selected-id';

const address = (postal: string, ...parts: string[]) => [postal && `〒${postal}`, ...parts].filter(Boolean).join(' ');

export function Component() {
  const id = useSelectedId('user_id');
  const caps = capabilities(actorOf(useSession())!);
  const q = useQuery(carUserDetailQuery(id));
  const del = useDeleteCarUser();
  const u = q.data;
  useRememberSelection('user_id', u?.user_id);
  return (
    <>
      <PageHeader
        title="顧客詳細"
        description={u ? `${u.first_name} ${u.name}（${u.user_id}）` : undefined}
        actions={
          u &&
          caps.editCarsAndCustomers && (
            <Group gap="xs">
              {!u.isDelete && (
                <Button component={Link} to={paths.car.userEdit(u.user_id)} leftSection={<IconEdit size={16} />}>
                  編集
                </Button>
              )}
              <DeleteRestoreButton
                isDelete={u.isDelete}
                noun="顧客"
                subject={`${u.first_name} ${u.name} さん`}
                onToggle={() => del.mutateAsync({ user_id: u.user_id, isDelete: !u.isDelete })}
              />
            </Group>
          )
        }
      />
      <DetailShell
        loading={!!id && q.isPending}
        error={!id ? errorMessages.notFound : q.isError ? messageOf(q.error, errorMessages.fetchFailed) : null}
        rows={
          u
            ? [
                { label: L.user_id, value: u.user_id },
                { label: '氏名', value: `${u.first_name} ${u.name}` },
                { label: L.company_name, value: u.company_name ?? '所属なし（本部）' },
                { label: L.merchant, value: u.merchant },
                { label: L.birthday, value: formatBirthday(u.birthday) },
                { label: L.gender, value: genderLabel(u.gender) },
                { label: L.state, value: <StatusBadge value={customerStates[u.state]} /> },
                { label: L.payment_log, value: <StatusBadge value={paymentDelays[u.payment_log]} /> },
                { label: L.work_phone, value: u.work_phone },
                { label: '住所', value: address(u.user_postal, u.user_state, u.user_address, u.user_address_sub) },
                { label: '勤務先', value: address(u.work_postal, u.work_state, u.work_address, u.work_address_sub) },
                { label: L.detail, value: u.detail },
                {
                  label: '状態',
                  value: u.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>,
                },
                { label: '登録日時', value: formatDateTime(u.created_at) },
                { label: '更新日時', value: formatDateTime(u.updated_at) },
              ]
            : []
        }
      >
        {u && <CarUserCars cars={u.cars} />}
      </DetailShell>
    </>
  );
}
