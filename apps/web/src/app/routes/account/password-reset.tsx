import { accountLabels as L, errorMessages, OwnPasswordChangeForm } from '@fleet/contract';
import { Alert, Stack } from '@mantine/core';
import { useState } from 'react';
import { PasswordField } from '../../../components/edit-shell/fields';
import { FormShell } from '../../../components/edit-shell/form-shell';
import { PageHeader } from '../../../components/page-header';
import { useChangePassword } from '../../../features/account/api';
import { accountTexts } from '../../../features/account/texts';

const T = accountTexts.password;

/** `/account/password_reset`: the signed-in user changes their own password. */
export function Component() {
  const change = useChangePassword();
  const [done, setDone] = useState(false);
  return (
    <>
      <PageHeader title={T.title} description={T.description} />
      {done && (
        <Alert color="green" mb="md" role="status">
          {T.done}
        </Alert>
      )}
      <FormShell
        schema={OwnPasswordChangeForm}
        defaultValues={{ current_password: '', password: '', password_confirm: '' }}
        failureMessage={errorMessages.updateFailed}
        submitLabel={T.submit}
        onSubmit={async (values, form) => {
          setDone(false);
          await change.mutateAsync(values);
          form.reset({ current_password: '', password: '', password_confirm: '' });
          setDone(true);
        }}
      >
        <Stack maw={420}>
          <PasswordField name="current_password" label={L.current_password} required autoComplete="current-password" />
          <PasswordField
            name="password"
            label={L.password}
            required
            autoComplete="new-password"
            description={T.length}
          />
          <PasswordField name="password_confirm" label={L.password_confirm} required autoComplete="new-password" />
        </Stack>
      </FormShell>
    </>
  );
}
