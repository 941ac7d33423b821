import { reportLabels, reportMessages } from '@fleet/contract';
import { Alert, Button, Checkbox, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { CompanySelect } from '../../components/company-select';
import { messageOf } from '../../lib/api-client';
import { useReportSubscription, useSaveReportSubscription } from './api';
import { reportTexts } from './texts';

/** The account's scheduled fleet summaries by mail (daily, monthly); the super admin may narrow them to a company. */
export function SubscriptionCard({ allCompanies }: { allCompanies: boolean }) {
  const q = useReportSubscription();
  const save = useSaveReportSubscription();
  const [form, setForm] = useState({ daily: false, monthly: false, company_id: null as string | null });
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (q.data) setForm({ daily: q.data.daily, monthly: q.data.monthly, company_id: q.data.company_id });
  }, [q.data]);
  const submit = async () => {
    setSaved(false);
    await save.mutateAsync({
      daily: form.daily,
      monthly: form.monthly,
      company_id: allCompanies ? form.company_id : null,
    });
    setSaved(true);
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="report-subscription">
      <Stack gap="sm">
        <Group gap="xs">
          <IconMail size={18} />
          <Title order={2} size="h5" id="report-subscription">
            {reportLabels.subscription}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {reportLabels.subscriptionHelp}
        </Text>
        {q.isPending ? (
          <Skeleton h={60} />
        ) : q.isError ? (
          <Alert color="red">{messageOf(q.error, reportMessages.subscriptionFailed)}</Alert>
        ) : (
          <>
            <Group gap="xl" wrap="wrap" align="flex-end">
              <Checkbox
                label={reportLabels.daily}
                checked={form.daily}
                onChange={(e) => setForm({ ...form, daily: e.currentTarget.checked })}
              />
              <Checkbox
                label={reportLabels.monthly}
                checked={form.monthly}
                onChange={(e) => setForm({ ...form, monthly: e.currentTarget.checked })}
              />
              {allCompanies && (
                <CompanySelect
                  label={reportTexts.subscription.company}
                  value={form.company_id}
                  onChange={(v) => setForm({ ...form, company_id: v })}
                />
              )}
            </Group>
            <Text size="sm">
              {reportLabels.mailTo}: {q.data.email}
            </Text>
            <Group>
              <Button size="sm" onClick={() => void submit().catch(() => undefined)} loading={save.isPending}>
                {reportLabels.save}
              </Button>
              {saved && (
                <Text size="sm" c="teal.7" role="status">
                  {reportMessages.subscriptionSaved}
                </Text>
              )}
            </Group>
            {save.isError && (
              <Alert color="red" role="alert">
                {messageOf(save.error, reportMessages.subscriptionFailed)}
              </Alert>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
