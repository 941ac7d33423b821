import { accountLabels as L, capabilities, errorMessages, roleLabel } from '@fleet/contract';
import { Badge, Button, Group } from '@mantine/core';
import { IconEdit, IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DeleteRestoreButton } from '../../../components/edit-shell/delete-restore-button';
import { DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { accountDetailQuery, useDeleteAccount } from '../../../features/account/api';
import { TotpSection } from '../../../features/totp/totp-section';
import { EngineControlBadge } from '../../../features/account/engine-control-badge';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';
import { useAccountId } from './use-account-id';

export function Component() {
  const id = useAccountId();
  const actor = actorOf(useSession())!;
  const q = useQuery(accountDetailQuery(id));
  const del = useDeleteAccount();
  const a = q.data;
  const self = id === actor.account_id;
  const canManage = capabilities(actor).manageAccounts && !self && (a?.role !== 0 || actor.role === 0);
  return (
    <>
      <PageHeader
        title="管理アカウント詳細"
        description={a ? `${a.name}（${a.account_id}）` : undefined}
        actions={
          a && (
            <Group gap="xs">
              {self && (
                <Button
                  component={Link}
                  to={paths.account.passwordReset}
                  variant="default"
                  leftSection={<IconKey size={16} />}
                >
                  パスワード変更
                </Button>
              )}
              {(canManage || self) && !a.isDelete && (
                <Button component={Link} to={paths.account.edit(a.account_id)} leftSection={<IconEdit size={16} />}>
                  編集
                </Button>
              )}
              {canManage && (
                <DeleteRestoreButton
                  isDelete={a.isDelete}
                  noun="アカウント"
                  subject={`${a.name} さんのアカウント`}
                  note={'ログイン中のセッションも無効になります。'}
                  onToggle={() => del.mutateAsync({ account_id: a.account_id, isDelete: !a.isDelete })}
                />
              )}
            </Group>
          )
        }
      />
      <DetailShell
        loading={q.isPending}
        error={q.isError ? messageOf(q.error, errorMessages.fetchFailed) : null}
        rows={
          a
            ? [
                { label: 'アカウントID', value: a.account_id },
                { label: '氏名', value: a.name },
                { label: 'メールアドレス', value: a.email },
                { label: '権限', value: roleLabel(a.role, a.company_id) },
                { label: '所属会社', value: a.company_name ?? '本部（所属なし）' },
                { label: L.engine_control, value: <EngineControlBadge on={a.engine_control} /> },
                {
                  label: '状態',
                  value: a.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>,
                },
                { label: '登録日時', value: formatDateTime(a.created_at) },
                { label: '更新日時', value: formatDateTime(a.updated_at) },
              ]
            : []
        }
      />
      {self && a && !a.isDelete && <TotpSection actor={actor} />}
    </>
  );
}
