import { TripSettings, tripMessages, tripSettingFields, type TripSettingKey } from '@fleet/contract';
import { Alert, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { CompanySelect } from '../../components/company-select';
import { NumberField } from '../../components/edit-shell/fields';
import { FormShell } from '../../components/edit-shell/form-shell';
import { ApiClientError, messageOf } from '../../lib/api-client';
import { useSaveTripSettings, useTripSettings } from './api';
import { reportTexts } from './texts';

const T = reportTexts.settings;
const keys = Object.keys(tripSettingFields) as TripSettingKey[];

/**
 * The company's trip and stop rule (トリップ判定設定): a company admin edits the own company's; the super
 * admin picks the company first. The contract's schema checks each number with its Japanese message.
 */
export function TripSettingsForm({ allCompanies }: { allCompanies: boolean }) {
  const [company, setCompany] = useState<string | null>(null);
  const ready = !allCompanies || company !== null;
  const q = useTripSettings(allCompanies ? company : null, ready);
  const save = useSaveTripSettings(allCompanies ? company : null);
  const [saved, setSaved] = useState(false);
  return (
    <Stack gap="md" maw={880}>
      {allCompanies && (
        <Paper withBorder p="md" radius="md">
          <CompanySelect
            label={T.company}
            value={company}
            onChange={(v) => {
              setCompany(v);
              setSaved(false);
            }}
          />
        </Paper>
      )}
      {!ready ? (
        <Text c="dimmed">{T.chooseCompany}</Text>
      ) : q.isPending ? (
        <Skeleton h={280} />
      ) : q.isError ? (
        <Alert color="red">{messageOf(q.error, tripMessages.fetchFailed)}</Alert>
      ) : (
        <>
          {saved && (
            <Alert color="teal" role="status">
              {T.saved}
            </Alert>
          )}
          <FormShell
            key={company ?? 'own'}
            schema={TripSettings}
            defaultValues={q.data.settings}
            failureMessage={T.failed}
            onSubmit={async (values) => {
              setSaved(false);
              try {
                await save.mutateAsync(values);
              } catch (e) {
                // The call's fields are under `settings`; the form's are the inner keys.
                if (e instanceof ApiClientError)
                  throw new ApiClientError(
                    e.status,
                    e.code,
                    e.message,
                    Object.fromEntries(Object.entries(e.errors).map(([k, m]) => [k.replace(/^settings\./, ''), m])),
                  );
                throw e;
              }
              setSaved(true);
            }}
          >
            {keys.map((k) => {
              const f = tripSettingFields[k];
              return (
                <NumberField
                  key={k}
                  name={k}
                  label={`${f.label}（${f.unit}）`}
                  // No min/max on the input: it would clamp a wrong number instead of saying what is wrong.
                  description={`${f.min}〜${f.max}${f.unit}（既定値 ${f.default}${f.unit}）`}
                  required
                />
              );
            })}
          </FormShell>
        </>
      )}
    </Stack>
  );
}
