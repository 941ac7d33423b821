import { capabilities, carUserLabels as L, customerStates, genderLabel, paymentDelays } from '@fleet/contract';
import { DetailActions, DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { StatusBadge } from '../../../components/status-badge';
import { useCarUserDetail, useDeleteCarUser } from '../../../features/car-user/api';
import { CarUserCars } from '../../../features/car-user/car-user-cars';
import { carUserTexts } from '../../../features/car-user/texts';
import { formatBirthday } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';
import { useRememberSelection, useSelection } from '../../../lib/use-selection';

const T = carUserTexts.detail;
const address = (postal: string, ...parts: string[]) =>
  [postal && T.postal(postal), ...parts].filter(Boolean).join(' ');

export function Component() {
  const id = useSelection('user_id');
  const caps = capabilities(actorOf(useSession())!);
  const q = useCarUserDetail(id);
  const del = useDeleteCarUser();
  const u = q.data;
  useRememberSelection({ user_id: u?.user_id });
  return (
    <>
      <PageHeader
        title={T.title}
        description={u ? T.heading(u) : undefined}
        actions={
          u &&
          caps.editCarsAndCustomers && (
            <DetailActions
              isDelete={u.isDelete}
              editTo={paths.car.userEdit(u.user_id)}
              remove={{
                noun: T.noun,
                subject: T.subject(u),
                onToggle: () => del.mutateAsync({ user_id: u.user_id, isDelete: !u.isDelete }),
              }}
            />
          )
        }
      />
      <DetailShell
        query={q}
        missing={!id}
        rows={(u) => [
          { label: L.user_id, value: u.user_id },
          { label: T.name, value: `${u.first_name} ${u.name}` },
          { label: L.company_name, value: u.company_name ?? T.noCompany },
          { label: L.merchant, value: u.merchant },
          { label: L.birthday, value: formatBirthday(u.birthday) },
          { label: L.gender, value: genderLabel(u.gender) },
          { label: L.state, value: <StatusBadge value={customerStates[u.state]} /> },
          { label: L.payment_log, value: <StatusBadge value={paymentDelays[u.payment_log]} /> },
          { label: L.work_phone, value: u.work_phone },
          { label: L.user_address, value: address(u.user_postal, u.user_state, u.user_address, u.user_address_sub) },
          { label: T.work, value: address(u.work_postal, u.work_state, u.work_address, u.work_address_sub) },
          { label: L.detail, value: u.detail },
        ]}
      >
        {(u) => <CarUserCars cars={u.cars} />}
      </DetailShell>
    </>
  );
}
