import { LogRequest } from '@fleet/contract';
import { Alert, Button, Group, Paper, Tabs, Text } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { DateTimeField } from '../../../components/date-fields';
import { PageHeader } from '../../../components/page-header';
import { useCarByDataId } from '../../../features/car/api';
import { CarNav } from '../../../features/car/car-nav';
import { carTexts } from '../../../features/car/texts';
import { logKindViews } from '../../../features/car-logs/log-kinds';
import { LogPanel } from '../../../features/car-logs/log-panel';
import { carLogTexts } from '../../../features/car-logs/texts';
import { useRememberSelection, useSelection } from '../../../lib/use-selection';

const T = carLogTexts.screen;

type Range = { from: string; to: string };

/** The contract's date rule (both bounds or none, the start not after the end), per field. */
function rangeErrors(carDataId: string, range: Range): Partial<Range> {
  const parsed = LogRequest.safeParse({ car_data_id: carDataId, ...range });
  if (parsed.success) return {};
  const out: Partial<Range> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'from' || field === 'to') && !out[field]) out[field] = issue.message;
  }
  return out;
}

/** `/car/car_loges/{car_data_id?}`: every log a terminal sends, with the date filter of docs/product.md §5. */
export function Component() {
  const carDataId = useSelection('car_data_id');
  // The URL names the terminal only: its vehicle (tabs, number, customer) is looked up by the IMEI.
  const car = useCarByDataId(carDataId).data;
  useRememberSelection({ car_id: car?.car_id, car_data_id: car ? carDataId : undefined });
  const [draft, setDraft] = useState<Range>({ from: '', to: '' });
  const [range, setRange] = useState<Range>({ from: '', to: '' });
  const [tab, setTab] = useState<string>('connection');
  const errors = useMemo(() => rangeErrors(carDataId || '-', draft), [carDataId, draft]);
  const invalid = !!(errors.from || errors.to);

  if (!carDataId) return <Alert color="yellow">{carTexts.noTerminalSelected}</Alert>;
  return (
    <>
      <PageHeader title={T.title} description={T.heading(carDataId, car)} />
      {car && <CarNav carId={car.car_id} carDataId={carDataId} />}
      <Paper withBorder p="md" radius="md" mb="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid) setRange(draft);
          }}
        >
          <Group align="flex-start" gap="sm">
            <DateTimeField
              label={T.from}
              value={draft.from}
              onChange={(v) => setDraft({ ...draft, from: v })}
              error={errors.from}
              clearable
            />
            <Text pt={32}>〜</Text>
            <DateTimeField
              label={T.to}
              value={draft.to}
              onChange={(v) => setDraft({ ...draft, to: v })}
              error={errors.to}
              clearable
            />
            <Button type="submit" mt={25} leftSection={<IconFilter size={16} />} disabled={invalid}>
              {T.filter}
            </Button>
            {(range.from || range.to) && (
              <Button
                variant="subtle"
                mt={25}
                leftSection={<IconX size={16} />}
                onClick={() => {
                  setDraft({ from: '', to: '' });
                  setRange({ from: '', to: '' });
                }}
              >
                {T.clear}
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
