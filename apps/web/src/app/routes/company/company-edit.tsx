import { errorMessages } from '@fleet/contract';
import { Alert, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { companyDetailQuery } from '../../../features/company/api';
import { CompanyFormView } from '../../../features/company/company-form';
import { messageOf } from '../../../lib/api-client';

export function Component() {
  const { company_id = '' } = useParams();
  const q = useQuery(companyDetailQuery(company_id));
  const c = q.data;
  return (
    <>
      <PageHeader title="加盟店編集" />
      {q.isError ? (
        <Alert color="red" role="alert">
          {messageOf(q.error, errorMessages.fetchFailed)}
        </Alert>
      ) : c ? (
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
      ) : (
        <Skeleton h={280} />
      )}
    </>
  );
}
