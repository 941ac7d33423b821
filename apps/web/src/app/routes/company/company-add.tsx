import { PageHeader } from '../../../components/page-header';
import { CompanyFormView } from '../../../features/company/company-form';
import { companyTexts } from '../../../features/company/texts';

export function Component() {
  return (
    <>
      <PageHeader title={companyTexts.addTitle} />
      <CompanyFormView
        mode="add"
        initial={{ company_id: '', company_name: '', name: '', address: '', phone: '', email: '' }}
      />
    </>
  );
}
