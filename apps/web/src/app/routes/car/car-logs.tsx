import { validationMessages } from '@fleet/contract';
import { Alert, Button, Group, Paper, Tabs, Text, TextInput } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { CarNav } from '../../../features/car/car-nav';
import { logKindViews } from '../../../features/car-logs/log-kinds';
import { LogPanel } from '../../../features/car-logs/log-panel';
import { useSession } from '../../../lib/session-store';

/** `/car/car_loges/{car_data_id?}`: every log a terminal sends, with the date filter of SPEC.md §5. */
export function Component() {
  const params = useParams();
  const stored = useSession((s) => s.car_data_id);
  const carId = useSession((s) => s.car_id);
  const carDataId = params.car_data_id || stored || '';
  const [draft, setDraft] = useState({ from: '', to: '' });
  const [range, setRange] = useState({ from: '', to: '' });
  const [tab, setTab] = useState<string>('connection');
  const oneSided = !!draft.from !== !!draft.to;

  if (!carDataId) return <Alert color="yellow">端末が選択されていません。車両一覧から車両を選んでください。</Alert>;
  return (
    <>
      <PageHeader title="データログ" description={`IMEI ${carDataId}`} />
      {carId && <CarNav carId={carId} carDataId={carDataId} />}
      <Paper withBorder p="md" radius="md" mb="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!oneSided) setRange(draft);
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput type="datetime-local" label="開始日時" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} error={oneSided && !draft.from ? validationMessages.dateRange : undefined} />
            <Text pb={8}>〜</Text>
            <TextInput type="datetime-local" label="終了日時" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} error={oneSided && !draft.to ? validationMessages.dateRange : undefined} />
            <Button type="submit" leftSection={<IconFilter size={16} />} disabled={oneSided}>
              絞り込む
            </Button>
            {(range.from || range.to) && (
              <Button variant="subtle" leftSection={<IconX size={16} />} onClick={() => { setDraft({ from: '', to: '' }); setRange({ from: '', to: '' }); }}>
                条件をクリア
              </Button>
            )}
          </Group>
        </form>
      </Paper>
      <Tabs value={tab} onChange={(v) => setTab(v ?? 'connection')} keepMounted={false} variant="pills" mb="sm">
        <Tabs.List mb="sm">
          {logKindViews.map((v) => (
            <Tabs.Tab key={v.kind} value={v.kind}>
              {v.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {logKindViews.map((v) => (
          <Tabs.Panel key={v.kind} value={v.kind}>
            <LogPanel view={v} carDataId={carDataId} from={range.from} to={range.to} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
