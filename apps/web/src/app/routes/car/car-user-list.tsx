import {
  capabilities,
  carUserLabels as L,
  carUserSearchColumns,
  customerStates,
  paymentDelays,
  userList,
  userListCount,
  type CarUserRow,
} from '@fleet/contract';
import { Anchor, Badge, Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ListShell, type ListColumn } from '../../../components/list-shell/list-shell';
import { stateColumn } from '../../../components/list-shell/list-table';
import { NoWrap } from '../../../components/list-shell/no-wrap';
import { PageHeader } from '../../../components/page-header';
import { StatusBadge } from '../../../components/status-badge';
import { carUserKeys } from '../../../features/car-user/api';
import { carUserTexts } from '../../../features/car-user/texts';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';

const T = carUserTexts.list;

export function Component() {
  const caps = capabilities(actorOf(useSession())!);
  const columns: ListColumn<CarUserRow>[] = [
    { sortKey: 'user_id', label: L.user_id, render: (r) => <NoWrap>{r.user_id}</NoWrap> },
    { sortKey: 'name', label: T.name, render: (r) => <NoWrap>{`${r.first_name} ${r.name}`}</NoWrap> },
    ...(caps.allCompanies
      ? [{ sortKey: 'company_name', label: L.company_name, render: (r: CarUserRow) => r.company_name ?? T.headOffice }]
      : []),
    { sortKey: 'merchant', label: L.merchant, render: (r) => r.merchant },
    { sortKey: 'state', label: L.state, render: (r) => <StatusBadge value={customerStates[r.state]} /> },
    {
      sortKey: 'payment_log',
      label: L.payment_log,
      render: (r) => <StatusBadge value={paymentDelays[r.payment_log]} />,
    },
    {
      label: T.car,
      render: (r) =>
        r.car_id ? (
          <Anchor component={Link} to={paths.car.detail(r.car_id)} size="sm">
            {r.car_id}
          </Anchor>
        ) : (
          <Badge variant="outline" color="gray" radius="sm">
            {T.noCar}
          </Badge>
        ),
    },
    stateColumn,
  ];
  return (
    <>
      <PageHeader
        title={T.title}
        actions={
          caps.registerCarsAndCustomers && (
            <Button component={Link} to={paths.car.userAdd} leftSection={<IconPlus size={16} />}>
              {T.add}
            </Button>
          )
        }
      />
      <ListShell
        id={carUserKeys.all[0]}
        countCall={userListCount}
        listCall={userList}
        searchColumns={carUserSearchColumns}
        defaultSort={{ item: 'user_id' }}
        companyFilter={caps.allCompanies}
        rowKey={(r) => r.user_id}
        rowLink={(r) => paths.car.userDetail(r.user_id)}
        columns={columns}
      />
    </>
  );
}
