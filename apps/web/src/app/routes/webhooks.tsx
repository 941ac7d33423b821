import { Button, Group } from '@mantine/core';
import { IconHistory, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { WebhookTable } from '../../features/webhooks/components/webhook-table';
import { webhookTexts as t } from '../../features/webhooks/texts';
import { paths } from '../../lib/paths';

/** `/notify/webhooks`: an administrator's webhook receivers. */
export function Component() {
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageHeader
        title={t.listTitle}
        description={t.listDescription}
        actions={
          <Group gap="xs">
            <Button
              component={Link}
              to={paths.webhookDeliveries}
              variant="default"
              leftSection={<IconHistory size={16} />}
            >
              {t.deliveriesTitle}
            </Button>
            <Button onClick={() => setAdding(true)} leftSection={<IconPlus size={16} />}>
              {t.add}
            </Button>
          </Group>
        }
      />
      <WebhookTable adding={adding} onAdded={() => setAdding(false)} />
    </>
  );
}
