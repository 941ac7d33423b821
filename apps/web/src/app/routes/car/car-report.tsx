import { capabilities } from '@fleet/contract';
import { Stack } from '@mantine/core';
import { PageHeader } from '../../../components/page-header';
import { FleetSummary } from '../../../features/reports/fleet-summary';
import { SubscriptionCard } from '../../../features/reports/subscription-card';
import { reportTexts } from '../../../features/reports/texts';
import { actorOf, useSession } from '../../../lib/session-store';

/** `/car/car_report`: the fleet summary over a range, its files, and the account's scheduled summary by mail. */
export function Component() {
  const actor = actorOf(useSession());
  const allCompanies = !!actor && capabilities(actor).allCompanies;
  return (
    <>
      <PageHeader title={reportTexts.summary.title} description={reportTexts.summary.description} />
      <Stack gap="lg">
        <FleetSummary />
        <SubscriptionCard allCompanies={allCompanies} />
      </Stack>
    </>
  );
}
