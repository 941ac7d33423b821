import { Alert, Card, Stack, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { RecoveryCodesPanel } from './recovery-codes';
import { TotpSetupPanel } from './totp-setup-panel';
import { totpTexts as T } from './texts';

interface TotpSetupRequiredProps {
  /** The recovery codes just answered by the enable: shown until kept (the layout holds them, as the
   * setup is done and this screen would otherwise give way at once). */
  codes?: string[] | undefined;
  onEnabled(codes: string[]): void;
  onDone(): void;
}

/**
 * What a signed-in account sees instead of any screen while its company requires 二段階認証 and it
 * has none: the setup, and nothing else (the server refuses every other call meanwhile); then its
 * recovery codes, once.
 */
export function TotpSetupRequired({ codes, onEnabled, onDone }: TotpSetupRequiredProps) {
  return (
    <Card withBorder radius="md" padding="lg" maw={720} mx="auto" mt="md">
      <Stack gap="md">
        <Title order={2} size="h3">
          {T.setupRequiredTitle}
        </Title>
        <Alert color="yellow" icon={<IconShieldLock size={18} />}>
          {T.setupRequiredLead}
        </Alert>
        {codes ? <RecoveryCodesPanel codes={codes} onDone={onDone} /> : <TotpSetupPanel onEnabled={onEnabled} />}
      </Stack>
    </Card>
  );
}
