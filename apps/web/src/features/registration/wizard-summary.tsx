import {
  carLabels,
  carUserLabels,
  customerStateLabel,
  deviceLabels,
  genderLabel,
  paymentDelayLabel,
  type CarUserDeviceAddInput,
} from '@fleet/contract';
import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useCompanyOptions } from '../../components/company-select';
import { Field, FieldGrid } from '../../components/edit-shell/detail-shell';
import { formatBirthday } from '../../lib/format';
import { registrationTexts as T } from './texts';

type Part = 'user' | 'device' | 'car';
const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
const joined = (...parts: unknown[]) => parts.filter((p) => p !== null && p !== undefined && p !== '').join(' ');

/** The confirmation step: everything that will be registered, part by part, each with a way back to its step. */
export function WizardSummary({ values, onEdit }: { values: CarUserDeviceAddInput; onEdit(part: Part): void }) {
  const companies = useCompanyOptions();
  const { user: u, device: d, car: c } = values;
  const area = c.available_data;
  const hasArea = area && Object.values(area).some((v) => v !== null && v !== '');
  const company = u.company_id
    ? (companies.data?.find((o) => o.value === u.company_id)?.label ?? u.company_id)
    : T.summary.noCompany;
  return (
    <Stack gap="md">
      <Section title={T.steps.user} onEdit={() => onEdit('user')}>
        <Field label={carUserLabels.user_id}>{u.user_id}</Field>
        <Field label={T.summary.name}>{joined(u.first_name, u.name)}</Field>
        <Field label={carUserLabels.company_id}>{company}</Field>
        <Field label={carUserLabels.merchant}>{u.merchant}</Field>
        <Field label={carUserLabels.birthday}>{formatBirthday(u.birthday ?? null)}</Field>
        <Field label={carUserLabels.gender}>
          {u.gender === null || u.gender === undefined || u.gender === '' ? '' : genderLabel(u.gender)}
        </Field>
        <Field label={carUserLabels.state}>{customerStateLabel(Number(u.state ?? 0))}</Field>
        <Field label={carUserLabels.payment_log}>{paymentDelayLabel(Number(u.payment_log ?? 0))}</Field>
        <Field label={carUserLabels.work_phone}>{u.work_phone}</Field>
        <Field label={carUserLabels.user_address}>
          {joined(u.user_postal && T.summary.postal(u.user_postal), u.user_state, u.user_address, u.user_address_sub)}
        </Field>
      </Section>
      <Section title={T.steps.device} onEdit={() => onEdit('device')}>
        <Field label={deviceLabels.car_device_id}>{d.car_device_id}</Field>
        <Field label={deviceLabels.car_data_id}>{d.car_data_id}</Field>
        <Field label={deviceLabels.password}>{'•'.repeat(Math.min(16, String(d.password ?? '').length))}</Field>
        <Field label={deviceLabels.car_type}>{d.car_type}</Field>
        <Field label={deviceLabels.ipaddr}>{d.ipaddr}</Field>
        <Field label={deviceLabels.macaddr}>{d.macaddr}</Field>
      </Section>
      <Section title={T.steps.car} onEdit={() => onEdit('car')}>
        <Field label={carLabels.car_id}>{c.car_id}</Field>
        <Field label={carLabels.car_number}>{c.car_number}</Field>
        <Field label={carLabels.car_type}>{c.car_type}</Field>
        <Field label={carLabels.car_vin}>{c.car_vin}</Field>
        <Field label={carLabels.available_data}>
          {hasArea
            ? T.summary.range(text(area.lat_min), text(area.lat_max), text(area.lng_min), text(area.lng_max))
            : T.summary.noRange}
        </Field>
      </Section>
    </Stack>
  );
}

function Section({ title, onEdit, children }: { title: string; onEdit(): void; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h5">
          {title}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconEdit size={14} />}
          onClick={onEdit}
          aria-label={T.summary.editSection(title)}
        >
          {T.summary.edit}
        </Button>
      </Group>
      <FieldGrid verticalSpacing={6}>{children}</FieldGrid>
    </Paper>
  );
}
