import { companyList, companyListCount, companySearchColumns } from '@fleet/contract';
import { Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell } from '../../../components/list-shell/list-shell';
import { PageHeader } from '../../../components/page-header';
import { companyKeys } from '../../../features/company/api';
import { paths } from '../../../lib/paths';

export function Component() {
  return (
    <>
      <PageHeader
        title="加盟店一覧"
        actions={
          <Button component={Link} to={paths.company.add} leftSection={<IconPlus size={16} />}>
            加盟店登録
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
          { sortKey: 'company_id', label: '会社ID', render: (r) => r.company_id },
          { sortKey: 'company_name', label: '会社名', render: (r) => r.company_name },
          { sortKey: 'name', label: '担当者名', render: (r) => r.name },
          { sortKey: 'address', label: '住所', render: (r) => r.address },
          { sortKey: 'phone', label: '電話番号', render: (r) => r.phone },
          { sortKey: 'email', label: 'メールアドレス', render: (r) => r.email },
          {
            label: '状態',
            render: (r) => (r.isDelete ? <Badge color="dark">削除済み</Badge> : <Badge variant="light">有効</Badge>),
          },
        ]}
      />
    </>
  );
}
