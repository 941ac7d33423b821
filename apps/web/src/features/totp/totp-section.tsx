import { errorMessages, isAdministrator, type Actor } from '@fleet/contract';
import { Alert, Badge, Card, Divider, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { totpStatusQuery } from './api';
import { CompanyTotpPolicy } from './company-totp-policy';
import { RecoveryCodesPanel, RecoveryCodesRenew } from './recovery-codes';
import { TotpDisableForm } from './totp-disable-form';
import { TotpSetupPanel } from './totp-setup-panel';
import { RECOVERY_CODES_LOW, totpTexts as T } from './texts';

/**
 * 二段階認証 of the own account: set it up (its recovery codes shown once), renew the recovery codes or
 * turn it off; a company admin also sets the company's policy.
 */
export function TotpSection({ actor }: { actor: Actor }) {
  const status = useQuery(totpStatusQuery());
  const [done, setDone] = useState<string>();
  /** Recovery codes just answered by the server: shown until the user says they are kept. */
  const [codes, setCodes] = useState<string[]>();
  const showCodes = (message: string) => (recoveryCodes: string[]) => {
    setDone(message);
    setCodes(recoveryCodes);
  };
  const s = status.data;
  return (
    <Card withBorder radius="md" padding="lg" mt="md" maw={880} component="section" aria-labelledby="totp-title">
      <Stack gap="md">
        <Group gap="sm">
          <Title order={3} size="h4" id="totp-title">
            {T.title}
          </Title>
          {s && (
            <Badge color={s.enabled ? 'green' : 'gray'} variant="light">
              {s.enabled ? T.enabled : T.disabled}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {T.lead}
        </Text>
        {done && (
          <Alert color="green" role="status">
            {done}
          </Alert>
        )}
        {status.isError && (
          <Alert color="red" role="alert">
            {messageOf(status.error, errorMessages.fetchFailed)}
          </Alert>
        )}
        {!s && status.isPending && <Skeleton h={36} />}
        {codes && <RecoveryCodesPanel codes={codes} onDone={() => setCodes(undefined)} />}
        {s && !s.enabled && <TotpSetupPanel onEnabled={showCodes(T.enabledDone)} />}
        {s?.enabled && (
          <Text
            size="sm"
            c={s.recovery_codes_left < RECOVERY_CODES_LOW ? 'red' : undefined}
            data-testid="recovery-left"
          >
            {T.recoveryLeft(s.recovery_codes_left)}
            {s.recovery_codes_left < RECOVERY_CODES_LOW && ` ${T.recoveryLow}`}
          </Text>
        )}
        {s?.enabled && !codes && <RecoveryCodesRenew onRenewed={showCodes(T.recoveryRenewed)} />}
        {s?.enabled && s.required && <Text size="sm">{T.requiredByCompany}</Text>}
        {s?.enabled && !s.required && (
          <>
            <Divider />
            <TotpDisableForm
              onDisabled={() => {
                setCodes(undefined);
                setDone(T.disabledDone);
              }}
            />
          </>
        )}
        {isAdministrator(actor) && actor.company_id && (
          <>
            <Divider />
            <CompanyTotpPolicy companyId={actor.company_id} />
          </>
        )}
      </Stack>
    </Card>
  );
}
