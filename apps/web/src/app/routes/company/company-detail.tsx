import { Card } from '@mantine/core';
import { useParams } from 'react-router';
import { DetailActions, DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useCompanyDetail, useDeleteCompany } from '../../../features/company/api';
import { CompanyTotpPolicy } from '../../../features/totp/company-totp-policy';
import { paths } from '../../../lib/paths';

export function Component() {
  const { company_id = '' } = useParams();
  const q = useCompanyDetail(company_id);
  const del = useDeleteCompany();
  const c = q.data;
  return (
    <>
      <PageHeader
        title="加盟店詳細"
        description={c?.company_name}
        actions={
          c && (
            <DetailActions
              isDelete={c.isDelete}
              editTo={paths.company.edit(c.company_id)}
              remove={{
                noun: '加盟店',
                subject: c.company_name + ' ',
                onToggle: () => del.mutateAsync({ company_id: c.company_id, isDelete: !c.isDelete }),
              }}
            />
          )
        }
      />
      <DetailShell
        query={q}
        rows={(c) => [
          { label: '会社ID', value: c.company_id },
          { label: '会社名', value: c.company_name },
          { label: '担当者名', value: c.name },
          { label: '電話番号', value: c.phone },
          { label: 'メールアドレス', value: c.email },
          { label: '住所', value: c.address },
          { label: 'アカウント数', value: c.account_count },
          { label: '顧客数', value: c.user_count },
          { label: '車両数', value: c.car_count },
        ]}
      />
      {c && !c.isDelete && (
        <Card withBorder radius="md" padding="lg" mt="md" maw={880}>
          <CompanyTotpPolicy companyId={c.company_id} title="二段階認証" />
        </Card>
      )}
    </>
  );
}
