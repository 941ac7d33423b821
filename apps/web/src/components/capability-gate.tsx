import { capabilities, errorMessages, type Capabilities } from '@fleet/contract';
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { actorOf, useSession } from '../lib/session-store';

/** Shows a screen only to those the permission matrix allows; others get the forbidden message, not a form that fails. */
export function CapabilityGate({ allow, children }: { allow(caps: Capabilities): boolean; children: ReactNode }) {
  const actor = actorOf(useSession());
  if (!actor || !allow(capabilities(actor)))
    return (
      <Alert color="red" role="alert">
        {errorMessages.forbidden}
      </Alert>
    );
  return <>{children}</>;
}
