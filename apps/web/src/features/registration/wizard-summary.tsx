import {
  carLabels,
  carUserLabels,
  customerStateLabel,
  deviceLabels,
  genderLabel,
  paymentDelayLabel,
  type CarUserDeviceAddInput,
} from '@fleet/contract';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useCompanyOptions } from '../../components/company-select';
import { formatBirthday } from '../../lib/format';

type Part = 'user' | 'device' | 'car';
const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v));
const joined = (...parts: unknown[]) => parts.filter((p) => p !== null && p !== undefined && p !== '').join(' ') || '—';

/** The confirmation step: everything that will be registered, part by part, each with a way back to its step. */
export function WizardSummary({ values, onEdit }: { values: CarUserDeviceAddInput; onEdit(part: Part): void }) {
  const companies = useCompanyOptions();
  const { user: u, device: d, car: c } = values;
  const area = c.available_data;
  const hasArea = area && Object.values(area).some((v) => v !== null && v !== '');
  const company = u.company_id
    ? (companies.data?.find((o) => o.value === u.company_id)?.label ?? u.company_id)
    : '所属なし（本部）';
  return (
    <Stack gap="md">
      <Section title="顧客情報" onEdit={() => onEdit('user')}>
        <Item label={carUserLabels.user_id} value={u.user_id} />
        <Item label="氏名" value={joined(u.first_name, u.name)} />
        <Item label={carUserLabels.company_id} value={company} />
        <Item label={carUserLabels.merchant} value={text(u.merchant)} />
        <Item label={carUserLabels.birthday} value={formatBirthday(u.birthday ?? null) || '—'} />
        <Item
          label={carUserLabels.gender}
          value={u.gender === null || u.gender === undefined || u.gender === '' ? '—' : genderLabel(u.gender)}
        />
        <Item label={carUserLabels.state} value={customerStateLabel(Number(u.state ?? 0))} />
        <Item label={carUserLabels.payment_log} value={paymentDelayLabel(Number(u.payment_log ?? 0))} />
        <Item label={carUserLabels.work_phone} value={text(u.work_phone)} />
        <Item
          label="住所"
          value={joined(u.user_postal && `〒${u.user_postal}`, u.user_state, u.user_address, u.user_address_sub)}
        />
      </Section>
      <Section title="GPS端末" onEdit={() => onEdit('device')}>
        <Item label={deviceLabels.car_device_id} value={d.car_device_id} />
        <Item label={deviceLabels.car_data_id} value={d.car_data_id} />
        <Item label={deviceLabels.password} value={'•'.repeat(Math.min(16, String(d.password ?? '').length))} />
        <Item label={deviceLabels.car_type} value={text(d.car_type)} />
        <Item label={deviceLabels.ipaddr} value={text(d.ipaddr)} />
        <Item label={deviceLabels.macaddr} value={text(d.macaddr)} />
      </Section>
      <Section title="車両情報" onEdit={() => onEdit('car')}>
        <Item label={carLabels.car_id} value={c.car_id} />
        <Item label={carLabels.car_number} value={c.car_number} />
        <Item label={carLabels.car_type} value={text(c.car_type)} />
        <Item label={carLabels.car_vin} value={text(c.car_vin)} />
        <Item
          label={carLabels.available_data}
          value={
            hasArea
              ? `緯度 ${text(area.lat_min)}〜${text(area.lat_max)} / 経度 ${text(area.lng_min)}〜${text(area.lng_max)}`
              : '設定なし'
          }
        />
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
          aria-label={`${title}を修正`}
        >
          修正
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing={6}>
        {children}
      </SimpleGrid>
    </Paper>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }}>
        {value}
      </Text>
    </div>
  );
}
