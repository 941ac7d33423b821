import { companyLabels as L, CompanyForm, errorMessages, PHONE_EXAMPLE, type CompanyFormInput } from '@fleet/contract';
import { SimpleGrid } from '@mantine/core';
import { useNavigate } from 'react-router';
import { TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';
import { useAddCompany, useUpdateCompany } from './api';
import { companyTexts } from './texts';

export function CompanyFormView({ mode, initial }: { mode: 'add' | 'edit'; initial: CompanyFormInput }) {
  const add = useAddCompany();
  const update = useUpdateCompany();
  const navigate = useNavigate();
  return (
    <FormShell
      schema={CompanyForm}
      defaultValues={initial}
      failureMessage={mode === 'add' ? errorMessages.addFailed : errorMessages.updateFailed}
      backTo={mode === 'add' ? paths.company.list : paths.company.detail(initial.company_id)}
      submitLabel={mode === 'add' ? shellTexts.form.add : shellTexts.form.update}
      onSubmit={async (values) => {
        await (mode === 'add' ? add : update).mutateAsync(values);
        await navigate(paths.company.detail(values.company_id));
      }}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          name="company_id"
          label={L.company_id}
          required
          disabled={mode === 'edit'}
          description={mode === 'add' ? companyTexts.form.idHint : undefined}
        />
        <TextField name="company_name" label={L.company_name} required />
        <TextField name="name" label={L.name} />
        <TextField name="phone" label={L.phone} type="tel" placeholder={`例: ${PHONE_EXAMPLE}`} />
        <TextField name="email" label={L.email} type="email" />
        <TextField name="address" label={L.address} />
      </SimpleGrid>
    </FormShell>
  );
}
