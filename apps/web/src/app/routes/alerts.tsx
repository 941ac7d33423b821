import { PageHeader } from '../../components/page-header';
import { AlertInbox } from '../../features/alerts/alert-inbox';
import { alertTexts } from '../../features/alerts/texts';

/** `/alerts`: the alert inbox of the caller's company (every company for the super admin). */
export function Component() {
  return (
    <>
      <PageHeader title={alertTexts.title} description={alertTexts.description} />
      <AlertInbox />
    </>
  );
}
