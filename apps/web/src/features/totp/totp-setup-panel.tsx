import { errorMessages, TotpEnableRequest } from '@fleet/contract';
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { messageOf } from '../../lib/api-client';
import { useTotpEnable, useTotpSetup } from './api';
import { QrCode } from './qr-code';
import { totpTexts as T } from './texts';

/**
 * Setting 二段階認証 up: a new secret as QR code and text, confirmed by one code from the app; the
 * answer carries the recovery codes, to be shown once.
 */
export function TotpSetupPanel({ onEnabled }: { onEnabled?(recoveryCodes: string[]): void }) {
  const setup = useTotpSetup();
  const enable = useTotpEnable();
  const pending = setup.data;

  if (!pending)
    return (
      <Stack gap="xs" align="flex-start">
        {setup.isError && (
          <Alert color="red" role="alert">
            {messageOf(setup.error, errorMessages.fetchFailed)}
          </Alert>
        )}
        <Button leftSection={<IconShieldLock size={16} />} loading={setup.isPending} onClick={() => setup.mutate()}>
          {T.start}
        </Button>
      </Stack>
    );

  return (
    <Stack gap="md" data-testid="totp-setup">
      <Text size="sm">{T.scan}</Text>
      <Group align="flex-start" gap="xl">
        <QrCode text={pending.otpauth_url} />
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {T.secretLabel}
          </Text>
          {/* Groups of four that wrap between groups, never inside one: a key is typed group by group. */}
          <Code fz="md" data-testid="totp-secret" style={{ maxWidth: 320, whiteSpace: 'normal' }}>
            {pending.secret.match(/.{1,4}/g)?.map((group, i) => [
              i > 0 ? ' ' : null,
              <span key={i} style={{ whiteSpace: 'nowrap' }}>
                {group}
              </span>,
            ])}
          </Code>
        </Stack>
      </Group>
      <FormShell
        schema={TotpEnableRequest}
        defaultValues={{ otp: '' }}
        failureMessage={errorMessages.updateFailed}
        submitLabel={T.enable}
        onSubmit={async (values) => {
          const { recovery_codes } = await enable.mutateAsync(values);
          onEnabled?.(recovery_codes);
        }}
      >
        <TextField name="otp" label={T.code} description={T.codeHint} required autoComplete="one-time-code" />
      </FormShell>
    </Stack>
  );
}
