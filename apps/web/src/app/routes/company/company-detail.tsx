import { errorMessages } from '@fleet/contract';
import { Badge, Button, Group } from '@mantine/core';
import { IconEdit, IconRestore, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ConfirmButton } from '../../../components/edit-shell/confirm-button';
import { DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { companyDetailQuery, useDeleteCompany } from '../../../features/company/api';
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
              {!c.isDelete && <Button component={Link} to={paths.company.edit(c.company_id)} leftSection={<IconEdit size={16} />}>編集</Button>}
              <ConfirmButton
                color={c.isDelete ? 'blue' : 'red'}
                variant="light"
                leftSection={c.isDelete ? <IconRestore size={16} /> : <IconTrash size={16} />}
                title={c.isDelete ? '加盟店の復元' : '加盟店の削除'}
                message={`${c.company_name} を${c.isDelete ? '復元' : '削除'}します。よろしいですか？`}
                confirmLabel={c.isDelete ? '復元する' : '削除する'}
                failureMessage={c.isDelete ? errorMessages.updateFailed : errorMessages.deleteFailed}
                onConfirm={() => del.mutateAsync({ company_id: c.company_id, isDelete: !c.isDelete })}
              >
                {c.isDelete ? '復元' : '削除'}
              </ConfirmButton>
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
                { label: '状態', value: c.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge> },
                { label: '登録日時', value: formatDateTime(c.created_at) },
                { label: '更新日時', value: formatDateTime(c.updated_at) },
              ]
            : []
        }
      />
    </>
  );
}
