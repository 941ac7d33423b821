import { PageHeader } from '../../../components/page-header';
import { CompanyFormView } from '../../../features/company/company-form';

export function Component() {
  return (
    <>
      <PageHeader title="加盟店登録" />
      <CompanyFormView
        mode="add"
        initial={{ company_id: '', company_name: '', name: '', address: '', phone: '', email: '' }}
      />
    </>
  );
}
