import { CarUserForm, errorMessages, isSuperAdmin, type CarUserDetail, type CarUserFormInput } from '@fleet/contract';
import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useCompanyOptions } from '../../components/company-select';
import { FormShell } from '../../components/edit-shell/form-shell';
import { paths } from '../../lib/paths';
import { shellTexts } from '../../lib/texts';
import { actorOf, useSession } from '../../lib/session-store';
import { useAddCarUser, useUpdateCarUser } from './api';
import { CarUserFields } from './car-user-fields';

/** An empty customer form: contract defaults (state 0 契約中, payment_log 0 遅延なし). */
export const emptyCarUser = (user_id: string, company_id: string | null): CarUserFormInput => ({
  user_id,
  company_id,
  first_name: '',
  name: '',
  merchant: '',
  birthday: '',
  gender: null,
  user_postal: '',
  user_state: '',
  user_address: '',
  user_address_sub: '',
  work_postal: '',
  work_state: '',
  work_address: '',
  work_address_sub: '',
  work_phone: '',
  payment_log: 0,
  state: 0,
  detail: '',
});

/** The form values of a loaded customer. */
export const carUserFormOf = (u: CarUserDetail): CarUserFormInput => {
  const { user_id, company_id, first_name, name, merchant, gender, payment_log, state, detail, work_phone } = u;
  const {
    user_postal,
    user_state,
    user_address,
    user_address_sub,
    work_postal,
    work_state,
    work_address,
    work_address_sub,
  } = u;
  return {
    ...{ user_id, company_id, first_name, name, merchant, gender, payment_log, state, detail, work_phone },
    ...{
      user_postal,
      user_state,
      user_address,
      user_address_sub,
      work_postal,
      work_state,
      work_address,
      work_address_sub,
    },
    birthday: u.birthday ? u.birthday.slice(0, 10) : '',
  };
};

/** Register or edit a customer; only the super admin chooses the company. */
export function CarUserFormView({
  mode,
  initial,
  companyName,
}: {
  mode: 'add' | 'edit';
  initial: CarUserFormInput;
  companyName?: string | null;
}) {
  const actor = actorOf(useSession())!;
  const superAdmin = isSuperAdmin(actor);
  const companies = useCompanyOptions(superAdmin);
  const add = useAddCarUser();
  const update = useUpdateCarUser();
  const navigate = useNavigate();
  return (
    <FormShell
      schema={CarUserForm}
      defaultValues={initial}
      failureMessage={mode === 'add' ? errorMessages.addFailed : errorMessages.updateFailed}
      backTo={mode === 'add' ? paths.car.userList : paths.car.userDetail(initial.user_id)}
      submitLabel={mode === 'add' ? shellTexts.form.add : shellTexts.form.update}
      onSubmit={async (values) => {
        await (mode === 'add' ? add : update).mutateAsync(values);
        await navigate(paths.car.userDetail(values.user_id));
      }}
    >
      <Stack gap="lg">
        <CarUserFields
          mode={mode}
          companies={superAdmin ? (companies.data ?? []) : undefined}
          companyName={companyName}
        />
      </Stack>
    </FormShell>
  );
}
