import { capabilities } from '@fleet/contract';
import { Button, Group } from '@mantine/core';
import { IconMail, IconWebhook } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { NotifyForm } from '../../features/notify/notify-form';
import { webhookTexts } from '../../features/webhooks/texts';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';

/** `/notify`: every user's own notification settings. */
export function Component() {
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  return (
    <>
      <PageHeader
        title="通知設定"
        description="車両に異常があったときに送信するメールの設定です。"
        actions={
          <Group gap="xs">
            {caps.manageWebhooks && (
              <Button component={Link} to={paths.webhooks} variant="default" leftSection={<IconWebhook size={16} />}>
                {webhookTexts.listTitle}
              </Button>
            )}
            {caps.superAdmin && (
              <Button component={Link} to={paths.mailOutbox} variant="default" leftSection={<IconMail size={16} />}>
                送信メール一覧
              </Button>
            )}
          </Group>
        }
      />
      <NotifyForm accountId={actor.account_id} />
    </>
  );
}
