import { useQuery } from '@tanstack/react-query';
import { PolicySwitch } from '../../components/policy-switch';
import { companyTotpPolicyQuery, useUpdateTotpPolicy } from './api';
import { totpTexts as T } from './texts';

/** A company's policy "TOTP for every account": its company admin and the super admin set it. */
export function CompanyTotpPolicy({ companyId, title = T.policyTitle }: { companyId: string; title?: string }) {
  const update = useUpdateTotpPolicy();
  return (
    <PolicySwitch
      texts={{ title, label: T.policyLabel, hint: T.policyHint, saved: T.policySaved }}
      policy={useQuery(companyTotpPolicyQuery(companyId))}
      value={(p) => p.require_totp}
      update={update}
      save={(checked, done) => update.mutate({ company_id: companyId, require_totp: checked }, { onSuccess: done })}
    />
  );
}
