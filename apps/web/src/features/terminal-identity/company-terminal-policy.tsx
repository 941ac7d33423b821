import { terminalIdentityTexts as T } from '@fleet/contract';
import { useQuery } from '@tanstack/react-query';
import { PolicySwitch } from '../../components/policy-switch';
import { companyTerminalPolicyQuery, useUpdateTerminalPolicy } from './api';

/**
 * A company's "alert when a TCP terminal logs in from a new source address" (docs/security.md
 * "Terminal identity"): its company admin and the super admin set it.
 */
export function CompanyTerminalPolicy({ companyId }: { companyId: string }) {
  const update = useUpdateTerminalPolicy();
  return (
    <PolicySwitch
      texts={{ title: T.policyTitle, label: T.policyLabel, hint: T.policyHint, saved: T.policySaved }}
      policy={useQuery(companyTerminalPolicyQuery(companyId))}
      value={(p) => p.alert_new_terminal_address}
      update={update}
      save={(checked, done) =>
        update.mutate({ company_id: companyId, alert_new_terminal_address: checked }, { onSuccess: done })
      }
    />
  );
}
