import { companyLabels as L } from '@fleet/contract';
import { Card } from '@mantine/core';
import { useParams } from 'react-router';
import { DetailActions, DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useCompanyDetail, useDeleteCompany } from '../../../features/company/api';
import { companyTexts } from '../../../features/company/texts';
import { CompanyTerminalPolicy } from '../../../features/terminal-identity/company-terminal-policy';
import { CompanyTotpPolicy } from '../../../features/totp/company-totp-policy';
import { totpTexts } from '../../../features/totp/texts';
import { paths } from '../../../lib/paths';

export function Component() {
  const { company_id = '' } = useParams();
  const q = useCompanyDetail(company_id);
  const del = useDeleteCompany();
  const c = q.data;
  return (
    <>
      <PageHeader
        title={companyTexts.detail.title}
        description={c?.company_name}
        actions={
          c && (
            <DetailActions
              isDelete={c.isDelete}
              editTo={paths.company.edit(c.company_id)}
              remove={{
                noun: companyTexts.detail.noun,
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
          { label: L.company_id, value: c.company_id },
          { label: L.company_name, value: c.company_name },
          { label: L.name, value: c.name },
          { label: L.phone, value: c.phone },
          { label: L.email, value: c.email },
          { label: L.address, value: c.address },
          { label: L.account_count, value: c.account_count },
          { label: L.user_count, value: c.user_count },
          { label: L.car_count, value: c.car_count },
        ]}
      />
      {c && !c.isDelete && (
        <Card withBorder radius="md" padding="lg" mt="md" maw={880}>
          <CompanyTotpPolicy companyId={c.company_id} title={totpTexts.title} />
        </Card>
      )}
      {c && !c.isDelete && (
        <Card withBorder radius="md" padding="lg" mt="md" maw={880}>
          <CompanyTerminalPolicy companyId={c.company_id} />
        </Card>
      )}
    </>
  );
}
