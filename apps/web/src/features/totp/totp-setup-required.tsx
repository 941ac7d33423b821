import { Alert, Card, Stack, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { TotpSetupPanel } from './totp-setup-panel';
import { totpTexts as T } from './texts';

/**
 * What a signed-in account sees instead of any screen while its company requires 二段階認証 and it
 * has none: the setup, and nothing else (the server refuses every other call meanwhile).
 */
export function TotpSetupRequired() {
  return (
    <Card withBorder radius="md" padding="lg" maw={720} mx="auto" mt="md">
      <Stack gap="md">
        <Title order={2} size="h3">
          {T.setupRequiredTitle}
        </Title>
        <Alert color="yellow" icon={<IconShieldLock size={18} />}>
          {T.setupRequiredLead}
        </Alert>
        <TotpSetupPanel />
      </Stack>
    </Card>
  );
}
