import { carEventLabels, type CarEvent } from '@fleet/contract';
import { Alert, Badge, Group, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateField } from '../../components/date-fields';
import { QueryState } from '../../components/edit-shell/detail-shell';
import { formatDateTime } from '../../lib/format';
import { carEventsQuery } from './api';
import { alertTexts } from './texts';

const t = alertTexts.timeline;
const colors: Record<CarEvent['type'], string> = {
  zone_enter: 'grape',
  zone_exit: 'violet',
  trip_start: 'teal',
  trip_end: 'cyan',
  alert: 'orange',
  command: 'blue',
};
/** Today in Japan, as YYYY-MM-DD. */
const todayJst = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

/** One day of a terminal's events (zone crossings, trips, alerts, engine commands), oldest first. */
export function CarTimeline({ carDataId }: { carDataId: string }) {
  const [day, setDay] = useState(todayJst);
  const q = useQuery(carEventsQuery(carDataId, day, day));
  return (
    <Stack gap="sm">
      <DateField label={t.day} value={day} onChange={setDay} />
      <QueryState query={q} loading={<Skeleton h={120} />}>
        {(data) =>
          data.events.length === 0 ? (
            <Text c="dimmed">{t.empty}</Text>
          ) : (
            <>
              {data.truncated && <Alert color="yellow">{t.truncated}</Alert>}
              <Timeline bulletSize={14} lineWidth={2} data-testid="car-timeline">
                {data.events.map((e, i) => (
                  <Timeline.Item
                    key={i}
                    color={colors[e.type]}
                    title={
                      <Group gap="xs">
                        <Badge color={colors[e.type]} variant="light" size="sm">
                          {carEventLabels[e.type]}
                        </Badge>
                        <Text size="sm">{formatDateTime(e.at)}</Text>
                      </Group>
                    }
                  >
                    <Text size="sm">{e.what}</Text>
                  </Timeline.Item>
                ))}
              </Timeline>
            </>
          )
        }
      </QueryState>
    </Stack>
  );
}
