import { errorMessages, terminalIdentityTexts as T } from '@fleet/contract';
import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { companyTerminalPolicyQuery, useUpdateTerminalPolicy } from './api';

/**
 * A company's "alert when a TCP terminal logs in from a new source address" (docs/security.md
 * "Terminal identity"): its company admin and the super admin set it.
 */
export function CompanyTerminalPolicy({ companyId }: { companyId: string }) {
  const policy = useQuery(companyTerminalPolicyQuery(companyId));
  const update = useUpdateTerminalPolicy();
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="xs">
      <Text fw={600}>{T.policyTitle}</Text>
      <Switch
        label={T.policyLabel}
        description={T.policyHint}
        checked={policy.data?.alert_new_terminal_address ?? false}
        disabled={!policy.data || update.isPending}
        onChange={(e) => {
          setSaved(false);
          update.mutate(
            { company_id: companyId, alert_new_terminal_address: e.currentTarget.checked },
            { onSuccess: () => setSaved(true) },
          );
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
          {T.policySaved}
        </Text>
      )}
    </Stack>
  );
}
