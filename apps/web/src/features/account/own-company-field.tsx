import { accountLabels as L } from '@fleet/contract';
import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ownCompanyNameQuery } from './api';
import { accountTexts } from './texts';

/**
 * The fixed company of an account made or edited by a company admin or manager: always their own,
 * shown by its name (the company id is a key, not something to read).
 */
export function OwnCompanyField() {
  const name = useQuery(ownCompanyNameQuery());
  return (
    <TextInput
      label={L.company_id}
      value={name.data === undefined ? '' : (name.data ?? accountTexts.headOffice)}
      disabled
      readOnly
    />
  );
}
