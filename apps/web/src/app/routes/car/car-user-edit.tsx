import { Skeleton } from '@mantine/core';
import { QueryState } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useCarUserDetail } from '../../../features/car-user/api';
import { carUserFormOf, CarUserFormView } from '../../../features/car-user/car-user-form';
import { carUserTexts } from '../../../features/car-user/texts';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const id = useSelection('user_id');
  const q = useCarUserDetail(id);
  return (
    <>
      <PageHeader title={carUserTexts.editTitle} />
      <QueryState query={q} missing={!id} loading={<Skeleton h={480} maw={880} />}>
        {(u) => <CarUserFormView mode="edit" initial={carUserFormOf(u)} companyName={u.company_name} />}
      </QueryState>
    </>
  );
}
