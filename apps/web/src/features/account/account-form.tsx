import {
  accountExistCheck,
  accountLabels as L,
  accountMessages,
  AccountEditForm,
  AccountForm,
  managedRoles,
  defaultEngineControl,
  errorMessages,
  isSuperAdmin,
  roleLabels,
  type AccountFormInput,
} from '@fleet/contract';
import { ActionIcon, Group, SimpleGrid, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useCompanyOptions } from '../../components/company-select';
import { PasswordField, SelectField, SwitchField, TextField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { OwnCompanyField } from './own-company-field';
import { callApi } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { actorOf, useSession } from '../../lib/session-store';
import { shellTexts } from '../../lib/texts';
import { generateCheckedId } from '../../lib/use-id-generator';
import { useAddAccount, useUpdateAccount } from './api';
import { accountTexts as T } from './texts';

const HEAD_OFFICE = '__head_office__';

/**
 * エンジン制御権限. A new account's follows its role (defaultEngineControl) until the user sets it;
 * one's own is shown but cannot be changed (the server refuses it too).
 */
function EngineControlField({ mode, self }: { mode: 'add' | 'edit'; self: boolean }) {
  const { setValue } = useFormContext<AccountFormInput>();
  const role = useWatch<AccountFormInput, 'role'>({ name: 'role' });
  const touched = useRef(false);
  useEffect(() => {
    if (mode === 'add' && !touched.current) setValue('engine_control', defaultEngineControl(Number(role)));
  }, [mode, role, setValue]);
  return (
    <SwitchField
      name="engine_control"
      label={L.engine_control}
      description={self ? accountMessages.selfEngineControl : T.engineControlHint}
      disabled={self}
      onToggle={() => {
        touched.current = true;
      }}
    />
  );
}

/** Register or edit an admin account; the role and company choices are those the caller may give. */
export function AccountFormView({ mode, initial }: { mode: 'add' | 'edit'; initial: AccountFormInput }) {
  const session = useSession();
  const actor = actorOf(session)!;
  const superAdmin = isSuperAdmin(actor);
  const companies = useCompanyOptions(superAdmin);
  const add = useAddAccount();
  const update = useUpdateAccount();
  const navigate = useNavigate();
  const self = initial.account_id === actor.account_id;
  const roles = (self ? [Number(initial.role)] : managedRoles(actor)).map((r) => ({
    value: String(r),
    label: roleLabels[r as 0 | 1 | 2],
  }));

  return (
    <FormShell
      schema={mode === 'add' ? AccountForm : AccountEditForm}
      defaultValues={{ ...initial, company_id: initial.company_id ?? (superAdmin ? HEAD_OFFICE : actor.company_id) }}
      failureMessage={mode === 'add' ? errorMessages.addFailed : errorMessages.updateFailed}
      backTo={mode === 'add' ? paths.account.list : paths.account.detail(initial.account_id)}
      submitLabel={mode === 'add' ? shellTexts.form.add : shellTexts.form.update}
      onSubmit={async (values, form) => {
        const info = { ...values, company_id: values.company_id === HEAD_OFFICE ? null : values.company_id };
        if (mode === 'add') {
          const { isExist } = await callApi(accountExistCheck, {
            check_item: 'email',
            check_value: String(values.email),
          });
          if (isExist) {
            form.setError('email', { message: accountMessages.emailInUse });
            return;
          }
          await add.mutateAsync(info);
        } else {
          await update.mutateAsync(info);
        }
        await navigate(paths.account.detail(String(values.account_id)));
      }}
    >
      {(form) => (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextField
              name="account_id"
              label={L.account_id}
              required
              disabled={mode === 'edit'}
              description={mode === 'add' ? T.form.idGenerated : undefined}
            />
            {mode === 'add' && (
              <Tooltip label={T.form.regenerateId}>
                <ActionIcon
                  variant="default"
                  size="lg"
                  mb={2}
                  aria-label={T.form.regenerateId}
                  onClick={async () =>
                    form.setValue('account_id', await generateCheckedId(accountExistCheck, 'account_id'), {
                      shouldValidate: true,
                    })
                  }
                >
                  <IconRefresh size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
          <TextField name="name" label={L.name} required autoComplete="name" />
          <TextField name="email" label={L.email} required type="email" autoComplete="email" />
          <SelectField name="role" label={L.role} required data={roles} numeric disabled={self} />
          {superAdmin ? (
            <SelectField
              name="company_id"
              label={L.company_id}
              data={[{ value: HEAD_OFFICE, label: T.headOffice }, ...(companies.data ?? [])]}
              disabled={self}
            />
          ) : (
            <OwnCompanyField />
          )}
          <EngineControlField mode={mode} self={self} />
          <PasswordField
            name="password"
            label={L.password}
            required={mode === 'add'}
            autoComplete="new-password"
            description={mode === 'edit' ? T.form.passwordOnChange : T.form.passwordLength}
          />
          <PasswordField
            name="password_confirm"
            label={L.password_confirm}
            required={mode === 'add'}
            autoComplete="new-password"
          />
        </SimpleGrid>
      )}
    </FormShell>
  );
}
