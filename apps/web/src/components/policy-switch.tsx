import { errorMessages } from '@fleet/contract';
import { Alert, Stack, Switch, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../lib/api-client';

export interface PolicySwitchProps<P> {
  texts: { title: string; label: string; hint: string; saved: string };
  /** The company's policy as read from the server. */
  policy: UseQueryResult<P>;
  /** The switch's value in the policy. */
  value: (policy: P) => boolean;
  /** The save in progress or failed. */
  update: { isPending: boolean; isError: boolean; error: unknown };
  /** Saves the new value and calls `done` once saved. */
  save: (checked: boolean, done: () => void) => void;
}

/** One on/off setting of a company (e.g. TOTP for every account), saved as it is switched. */
export function PolicySwitch<P>({ texts, policy, value, update, save }: PolicySwitchProps<P>) {
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="xs">
      <Text fw={600}>{texts.title}</Text>
      <Switch
        label={texts.label}
        description={texts.hint}
        checked={policy.data ? value(policy.data) : false}
        disabled={!policy.data || update.isPending}
        onChange={(e) => {
          setSaved(false);
          save(e.currentTarget.checked, () => setSaved(true));
        }}
      />
      {update.isError && (
        <Alert color="red" role="alert">
          {messageOf(update.error, errorMessages.updateFailed)}
        </Alert>
      )}
      {policy.isError && (
        <Alert color="red" role="alert">
          {messageOf(policy.error, errorMessages.fetchFailed)}
        </Alert>
      )}
      {saved && (
        <Text size="sm" c="green" role="status">
          {texts.saved}
        </Text>
      )}
    </Stack>
  );
}
