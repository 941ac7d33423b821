import { companyLabels as L, companyList, companyListCount, companySearchColumns } from '@fleet/contract';
import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell } from '../../../components/list-shell/list-shell';
import { PageHeader } from '../../../components/page-header';
import { companyKeys } from '../../../features/company/api';
import { companyTexts } from '../../../features/company/texts';
import { paths } from '../../../lib/paths';
import { shellTexts } from '../../../lib/texts';

export function Component() {
  return (
    <>
      <PageHeader
        title={companyTexts.list.title}
        actions={
          <Button component={Link} to={paths.company.add} leftSection={<IconPlus size={16} />}>
            {companyTexts.list.add}
          </Button>
        }
      />
      <ListShell
        id={companyKeys.all[0]}
        countCall={companyListCount}
        listCall={companyList}
        searchColumns={companySearchColumns}
        defaultSort={{ item: 'company_id' }}
        rowKey={(r) => r.company_id}
        rowLink={(r) => paths.company.detail(r.company_id)}
        columns={[
          { sortKey: 'company_id', label: L.company_id, render: (r) => r.company_id },
          { sortKey: 'company_name', label: L.company_name, render: (r) => r.company_name },
          { sortKey: 'name', label: L.name, render: (r) => r.name },
          { sortKey: 'address', label: L.address, render: (r) => r.address },
          { sortKey: 'phone', label: L.phone, render: (r) => r.phone },
          { sortKey: 'email', label: L.email, render: (r) => r.email },
          {
            label: shellTexts.detail.state,
            render: (r) =>
              r.isDelete ? (
                <Badge color="dark">{shellTexts.detail.deleted}</Badge>
              ) : (
                <Badge variant="light">{shellTexts.detail.active}</Badge>
              ),
          },
        ]}
      />
    </>
  );
}
