import { capabilities } from '@fleet/contract';
import { Button, Group, Tabs } from '@mantine/core';
import { IconHistory, IconMail, IconWebhook } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { GroupNotifySettings } from '../../features/notify/group-notify';
import { NotifyForm } from '../../features/notify/notify-form';
import { PushControl } from '../../features/notify/push-control';
import { groupNotifyTexts, notifyTexts } from '../../features/notify/texts';
import { mailTexts } from '../../features/mail/texts';
import { webhookTexts } from '../../features/webhooks/texts';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';

/** `/notify`: every user's own notification settings; managers and administrators also their groups'. */
export function Component() {
  const actor = actorOf(useSession())!;
  const caps = capabilities(actor);
  return (
    <>
      <PageHeader
        title={notifyTexts.settings.title}
        description={notifyTexts.settings.description}
        actions={
          <Group gap="xs">
            {caps.notifyHistory && (
              <Button
                component={Link}
                to={paths.notifyHistory}
                variant="default"
                leftSection={<IconHistory size={16} />}
              >
                {notifyTexts.history.title}
              </Button>
            )}
            {caps.manageWebhooks && (
              <Button component={Link} to={paths.webhooks} variant="default" leftSection={<IconWebhook size={16} />}>
                {webhookTexts.listTitle}
              </Button>
            )}
            {caps.superAdmin && (
              <Button component={Link} to={paths.mailOutbox} variant="default" leftSection={<IconMail size={16} />}>
                {mailTexts.title}
              </Button>
            )}
          </Group>
        }
      />
      <PushControl />
      {caps.editCarsAndCustomers ? (
        // One form mounted at a time: each guards its own unsaved changes.
        <Tabs defaultValue="own" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="own">{groupNotifyTexts.tabOwn}</Tabs.Tab>
            <Tabs.Tab value="groups">{groupNotifyTexts.tabGroups}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="own">
            <NotifyForm accountId={actor.account_id} />
          </Tabs.Panel>
          <Tabs.Panel value="groups">
            <GroupNotifySettings />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <NotifyForm accountId={actor.account_id} />
      )}
    </>
  );
}
