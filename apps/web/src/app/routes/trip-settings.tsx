import { capabilities } from '@fleet/contract';
import { PageHeader } from '../../components/page-header';
import { reportTexts } from '../../features/reports/texts';
import { TripSettingsForm } from '../../features/reports/trip-settings-form';
import { actorOf, useSession } from '../../lib/session-store';

/** `/trip_settings`: the trip and stop rule of the own company (company admin) or of a chosen one (super admin). */
export function Component() {
  const actor = actorOf(useSession());
  return (
    <>
      <PageHeader title={reportTexts.settings.title} description={reportTexts.settings.description} />
      <TripSettingsForm allCompanies={!!actor && capabilities(actor).allCompanies} />
    </>
  );
}
