import { accountLabels as L, capabilities, isAdministrator, managedRoles, roleLabel, type Role } from '@fleet/contract';
import { Button, Card } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DetailActions, DetailShell } from '../../../components/edit-shell/detail-shell';
import { PageHeader } from '../../../components/page-header';
import { useAccountDetail, useDeleteAccount } from '../../../features/account/api';
import { TotpSection } from '../../../features/totp/totp-section';
import { CompanyTerminalPolicy } from '../../../features/terminal-identity/company-terminal-policy';
import { EngineControlBadge } from '../../../features/account/engine-control-badge';
import { accountTexts } from '../../../features/account/texts';
import { paths } from '../../../lib/paths';
import { actorOf, useSession } from '../../../lib/session-store';
import { useSelection } from '../../../lib/use-selection';

export function Component() {
  const id = useSelection('account_id');
  const actor = actorOf(useSession())!;
  const q = useAccountDetail(id);
  const del = useDeleteAccount();
  const a = q.data;
  const self = id === actor.account_id;
  const canManage = capabilities(actor).manageAccounts && !self && (!a || managedRoles(actor).includes(a.role as Role));
  return (
    <>
      <PageHeader
        title={accountTexts.detail.title}
        description={a ? accountTexts.detail.heading(a.name, a.account_id) : undefined}
        actions={
          a && (
            <DetailActions
              isDelete={a.isDelete}
              editTo={(canManage || self) && paths.account.edit(a.account_id)}
              remove={
                canManage && {
                  noun: accountTexts.detail.noun,
                  subject: accountTexts.detail.subject(a.name),
                  note: accountTexts.detail.deleteNote,
                  onToggle: () => del.mutateAsync({ account_id: a.account_id, isDelete: !a.isDelete }),
                }
              }
            >
              {self && (
                <Button
                  component={Link}
                  to={paths.account.passwordReset}
                  variant="default"
                  leftSection={<IconKey size={16} />}
                >
                  {accountTexts.detail.changePassword}
                </Button>
              )}
            </DetailActions>
          )
        }
      />
      <DetailShell
        query={q}
        rows={(a) => [
          { label: L.account_id, value: a.account_id },
          { label: L.name, value: a.name },
          { label: L.email, value: a.email },
          { label: L.role, value: roleLabel(a.role, a.company_id) },
          { label: L.company_name, value: a.company_name ?? accountTexts.headOffice },
          { label: L.engine_control, value: <EngineControlBadge on={a.engine_control} /> },
        ]}
      />
      {self && a && !a.isDelete && <TotpSection actor={actor} />}
      {self && a && !a.isDelete && isAdministrator(actor) && actor.company_id && (
        <Card withBorder radius="md" padding="lg" mt="md" maw={880}>
          <CompanyTerminalPolicy companyId={actor.company_id} />
        </Card>
      )}
    </>
  );
}
