import { errorMessages, TotpRecoveryCodesRequest } from '@fleet/contract';
import { Alert, Anchor, Button, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { PasswordField, TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { saveBlob } from '../../lib/download';
import { useTotpRecoveryCodes } from './api';
import { totpTexts as T } from './texts';

/**
 * The recovery codes, shown once (after enabling or renewing them): the server keeps only their
 * hashes, so they can be copied or downloaded now and never again.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const text = codes.join('\n');
  return (
    <Alert color="yellow" title={T.recoveryTitle} data-testid="recovery-codes-panel">
      <Stack gap="sm">
        <Text size="sm">{T.recoveryLead}</Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg" verticalSpacing={4} maw={520} data-testid="recovery-codes">
          {codes.map((code) => (
            <Text key={code} ff="monospace" fz="md" style={{ whiteSpace: 'nowrap' }}>
              {code}
            </Text>
          ))}
        </SimpleGrid>
        <Group gap="sm">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                size="xs"
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
              >
                {copied ? T.recoveryCopied : T.recoveryCopy}
              </Button>
            )}
          </CopyButton>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} />}
            onClick={() =>
              saveBlob(new Blob([`${T.recoveryFileHeader}\n\n${text}\n`], { type: 'text/plain' }), T.recoveryFileName)
            }
          >
            {T.recoveryDownload}
          </Button>
          <Button size="xs" onClick={onDone}>
            {T.recoverySaved}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * The second factor inside a form of the password and a code: the 6-digit code or, switched over, a
 * recovery code (the field not in use is left out of what is sent).
 */
export function CodeOrRecoveryFields() {
  const { setValue, clearErrors } = useFormContext();
  const [recovery, setRecovery] = useState(false);
  const toggle = () => {
    setValue(recovery ? 'recovery_code' : 'otp', undefined);
    setValue(recovery ? 'otp' : 'recovery_code', '');
    clearErrors(['otp', 'recovery_code']);
    setRecovery(!recovery);
  };
  return (
    <Stack gap={4}>
      {recovery ? (
        <TextField name="recovery_code" label={T.recoveryCode} description={T.recoveryCodeHint} required />
      ) : (
        <TextField name="otp" label={T.code} description={T.codeHint} required autoComplete="one-time-code" />
      )}
      <Anchor component="button" type="button" size="xs" ta="left" onClick={toggle}>
        {recovery ? T.useOtp : T.useRecoveryCode}
      </Anchor>
    </Stack>
  );
}

/** New recovery codes with the password and a code; the old ones stop working. */
export function RecoveryCodesRenew({ onRenewed }: { onRenewed(codes: string[]): void }) {
  const renew = useTotpRecoveryCodes();
  return (
    <FormShell
      schema={TotpRecoveryCodesRequest}
      defaultValues={{ password: '', otp: '' }}
      failureMessage={errorMessages.updateFailed}
      submitLabel={T.recoveryRenew}
      onSubmit={async (values) => {
        const { recovery_codes } = await renew.mutateAsync(values);
        onRenewed(recovery_codes);
      }}
    >
      <Stack gap="sm" maw={420}>
        <Text fw={600}>{T.recoveryRenewTitle}</Text>
        <Text size="sm" c="dimmed">
          {T.recoveryRenewLead}
        </Text>
        <PasswordField name="password" label={T.password} required autoComplete="current-password" />
        <CodeOrRecoveryFields />
      </Stack>
    </FormShell>
  );
}
