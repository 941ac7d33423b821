import { capabilities } from '@fleet/contract';
import { Button } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { NotifyForm } from '../../features/notify/notify-form';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';

/** `/notify`: every user's own notification settings. */
export function Component() {
  const actor = actorOf(useSession())!;
  return (
    <>
      <PageHeader
        title="通知設定"
        description="車両に異常があったときに送信するメールの設定です。"
        actions={capabilities(actor).superAdmin && <Button component={Link} to={paths.mailOutbox} variant="default" leftSection={<IconMail size={16} />}>送信メール一覧</Button>}
      />
      <NotifyForm accountId={actor.account_id} />
    </>
  );
}
