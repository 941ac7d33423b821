import {
  accountLabels as L,
  accountList,
  accountListCount,
  accountSearchColumns,
  capabilities,
  roleLabel,
  type AccountRow,
} from '@fleet/contract';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell } from '../../../components/list-shell/list-shell';
import { stateColumn } from '../../../components/list-shell/list-table';
import { PageHeader } from '../../../components/page-header';
import { accountKeys } from '../../../features/account/api';
import { EngineControlBadge } from '../../../features/account/engine-control-badge';
import { accountTexts } from '../../../features/account/texts';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';

export function Component() {
  const actor = actorOf(useSession())!;
  const all = capabilities(actor).allCompanies;
  return (
    <>
      <PageHeader
        title={accountTexts.list.title}
        actions={
          <Button component={Link} to={paths.account.add} leftSection={<IconPlus size={16} />}>
            {accountTexts.list.add}
          </Button>
        }
      />
      <ListShell
        id={accountKeys.all[0]}
        countCall={accountListCount}
        listCall={accountList}
        searchColumns={accountSearchColumns}
        defaultSort={{ item: 'account_id' }}
        companyFilter={all}
        rowKey={(r) => r.account_id}
        rowLink={(r) => paths.account.detail(r.account_id)}
        columns={[
          { sortKey: 'account_id', label: L.account_id, render: (r) => r.account_id },
          { sortKey: 'name', label: L.name, render: (r) => r.name },
          { sortKey: 'email', label: L.email, render: (r) => r.email },
          { sortKey: 'role', label: L.role, render: (r) => roleLabel(r.role, r.company_id) },
          { label: L.engine_control, render: (r) => <EngineControlBadge on={r.engine_control} /> },
          ...(all
            ? [
                {
                  sortKey: 'company_name',
                  label: L.company_name,
                  render: (r: AccountRow) => r.company_name ?? accountTexts.list.headOffice,
                },
              ]
            : []),
          stateColumn,
        ]}
      />
    </>
  );
}
