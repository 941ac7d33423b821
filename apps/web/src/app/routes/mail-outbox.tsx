import { mailOutboxStatusLabels, type MailOutboxStatus } from '@fleet/contract';
import { Paper } from '@mantine/core';
import { useState } from 'react';
import { ListTable } from '../../components/list-shell/list-table';
import { StatusFilter } from '../../components/list-shell/status-filter';
import { usePaging } from '../../components/list-shell/use-paging';
import { PageHeader } from '../../components/page-header';
import { useMailOutbox } from '../../features/mail/api';
import { outboxColumns } from '../../features/mail/outbox-columns';
import { mailTexts as t } from '../../features/mail/texts';

/** The mail outbox (super admin): what was sent, what waits for a retry and why. */
export function Component() {
  const [status, setStatus] = useState<MailOutboxStatus>('all');
  const page = usePaging();
  const q = useMailOutbox({ status, ...page.request });
  return (
    <>
      <PageHeader title={t.title} description={t.description} />
      <Paper withBorder p="md" radius="md">
        <StatusFilter
          value={status}
          labels={mailOutboxStatusLabels}
          allLabel={t.all}
          onChange={(v) => {
            setStatus(v);
            page.reset();
          }}
        />
        <ListTable
          columns={outboxColumns}
          rowKey={(m) => m.id}
          empty={t.empty}
          minWidth={900}
          wrap
          {...page.table(q)}
        />
      </Paper>
    </>
  );
}
