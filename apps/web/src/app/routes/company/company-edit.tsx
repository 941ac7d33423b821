import { Skeleton } from '@mantine/core';
import { useParams } from 'react-router';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useCompanyDetail } from '../../../features/company/api';
import { CompanyFormView } from '../../../features/company/company-form';
import { companyTexts } from '../../../features/company/texts';

export function Component() {
  const { company_id = '' } = useParams();
  const q = useCompanyDetail(company_id);
  return (
    <>
      <PageHeader title={companyTexts.editTitle} />
      <QueryState query={q} loading={<Skeleton h={280} />}>
        {(c) => (
          <CompanyFormView
            mode="edit"
            initial={{
              company_id: c.company_id,
              company_name: c.company_name,
              name: c.name,
              address: c.address,
              phone: c.phone,
              email: c.email,
            }}
          />
        )}
      </QueryState>
    </>
  );
}
