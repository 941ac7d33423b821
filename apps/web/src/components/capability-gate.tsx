// Subpaths, not the package: every screen passes here, and the package's entry configures zod (its
// Japanese messages), which the sign-in screen does not need.
import { errorMessages } from '@fleet/contract/messages';
import { capabilities, type Capabilities } from '@fleet/contract/permissions';
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { actorOf, useSession } from '../lib/session-store';
import { PageHeader } from './page-header';

/**
 * Shows a screen only to those the permission matrix allows; others get the forbidden message (under
 * the screen's title when given), not a form that fails.
 */
export function CapabilityGate({
  allow,
  title,
  children,
}: {
  allow(caps: Capabilities): boolean;
  title?: string;
  children: ReactNode;
}) {
  const actor = actorOf(useSession());
  if (!actor || !allow(capabilities(actor)))
    return (
      <>
        {title && <PageHeader title={title} />}
        <Alert color="red" role="alert">
          {errorMessages.forbidden}
        </Alert>
      </>
    );
  return <>{children}</>;
}
