import { errorMessages } from '@fleet/contract';
import { Alert, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { messageOf } from '../../lib/api-client';
import { companyTotpPolicyQuery, useUpdateTotpPolicy } from './api';
import { totpTexts as T } from './texts';

/** A company's policy "TOTP for every account": its company admin and the super admin set it. */
export function CompanyTotpPolicy({ companyId, title = T.policyTitle }: { companyId: string; title?: string }) {
  const policy = useQuery(companyTotpPolicyQuery(companyId));
  const update = useUpdateTotpPolicy();
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="xs">
      <Text fw={600}>{title}</Text>
      <Switch
        label={T.policyLabel}
        description={T.policyHint}
        checked={policy.data?.require_totp ?? false}
        disabled={!policy.data || update.isPending}
        onChange={(e) => {
          setSaved(false);
          update.mutate(
            { company_id: companyId, require_totp: e.currentTarget.checked },
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
