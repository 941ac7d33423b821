import { errorMessages } from '@fleet/contract';
import { Badge, Button, Card, Group } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { DeleteRestoreButton } from '../../../components/edit-shell/delete-restore-button';
import { DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { companyDetailQuery, useDeleteCompany } from '../../../features/company/api';
import { CompanyTotpPolicy } from '../../../features/totp/company-totp-policy';
import { messageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';

export function Component() {
  const { company_id = '' } = useParams();
  const q = useQuery(companyDetailQuery(company_id));
  const del = useDeleteCompany();
  const c = q.data;
  return (
    <>
      <PageHeader
        title="加盟店詳細"
        description={c?.company_name}
        actions={
          c && (
            <Group gap="xs">
              {!c.isDelete && (
                <Button component={Link} to={paths.company.edit(c.company_id)} leftSection={<IconEdit size={16} />}>
                  編集
                </Button>
              )}
              <DeleteRestoreButton
                isDelete={c.isDelete}
                noun="加盟店"
                subject={c.company_name + ' '}
                onToggle={() => del.mutateAsync({ company_id: c.company_id, isDelete: !c.isDelete })}
              />
            </Group>
          )
        }
      />
      <DetailShell
        loading={q.isPending}
        error={q.isError ? messageOf(q.error, errorMessages.fetchFailed) : null}
        rows={
          c
            ? [
                { label: '会社ID', value: c.company_id },
                { label: '会社名', value: c.company_name },
                { label: '担当者名', value: c.name },
                { label: '電話番号', value: c.phone },
                { label: 'メールアドレス', value: c.email },
                { label: '住所', value: c.address },
                { label: 'アカウント数', value: c.account_count },
                { label: '顧客数', value: c.user_count },
                { label: '車両数', value: c.car_count },
                {
                  label: '状態',
                  value: c.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>,
                },
                { label: '登録日時', value: formatDateTime(c.created_at) },
                { label: '更新日時', value: formatDateTime(c.updated_at) },
              ]
            : []
        }
      />
      {c && !c.isDelete && (
        <Card withBorder radius="md" padding="lg" mt="md" maw={880}>
          <CompanyTotpPolicy companyId={c.company_id} title="二段階認証" />
        </Card>
      )}
    </>
  );
}
