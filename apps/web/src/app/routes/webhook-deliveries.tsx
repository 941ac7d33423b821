import { PageHeader } from '../../components/page-header';
import { DeliveryTable } from '../../features/webhooks/components/delivery-table';
import { webhookTexts as t } from '../../features/webhooks/texts';

/** `/notify/webhook_deliveries`: the delivery log of the caller's webhook receivers. */
export function Component() {
  return (
    <>
      <PageHeader title={t.deliveriesTitle} description={t.deliveriesDescription} />
      <DeliveryTable />
    </>
  );
}
