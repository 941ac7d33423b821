import { errorMessages, TotpDisableRequest } from '@fleet/contract';
import { Stack, Text } from '@mantine/core';
import { PasswordField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { useTotpDisable } from './api';
import { CodeOrRecoveryFields } from './recovery-codes';
import { totpTexts as T } from './texts';

/** Turning 二段階認証 off: the password and a current code (or a recovery code, the app being lost). */
export function TotpDisableForm({ onDisabled }: { onDisabled(): void }) {
  const disable = useTotpDisable();
  return (
    <FormShell
      schema={TotpDisableRequest}
      defaultValues={{ password: '', otp: '' }}
      failureMessage={errorMessages.updateFailed}
      submitLabel={T.disable}
      onSubmit={async (values) => {
        await disable.mutateAsync(values);
        onDisabled();
      }}
    >
      <Stack gap="sm" maw={420}>
        <Text fw={600}>{T.disableTitle}</Text>
        <Text size="sm" c="dimmed">
          {T.disableLead}
        </Text>
        <PasswordField name="password" label={T.password} required autoComplete="current-password" />
        <CodeOrRecoveryFields />
      </Stack>
    </FormShell>
  );
}
