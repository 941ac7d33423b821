import { Button, List, Popover, ScrollArea, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format';
import type { FleetItem } from '../fleet-view';
import { fleetMapTexts as T } from '../texts';

/** Why a vehicle has no place on the map: no terminal, no report yet, or reports without a position. */
export const unplacedReason = (i: FleetItem): string =>
  !i.car.car_data_id
    ? T.unplaced.noTerminal
    : !i.source
      ? T.unplaced.noReport
      : T.unplaced.noFix(formatDateTime(i.seen));

/** The vehicles the map cannot place, counted under it; the count opens the list of them with the reason. */
export function UnplacedNote({ items }: { items: readonly FleetItem[] }) {
  const unplaced = items.filter((i) => i.lat === null || i.lng === null);
  if (unplaced.length === 0) return null;
  return (
    <Popover width={360} position="top-start" withArrow shadow="md">
      <Popover.Target>
        <Button variant="subtle" size="compact-xs" mt={4} color="gray">
          {T.noPosition(unplaced.length)}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <ScrollArea.Autosize mah={260} type="auto">
          <List size="xs" spacing={2} aria-label={T.unplaced.title}>
            {unplaced.slice(0, 200).map((i) => (
              <List.Item key={i.car.car_id}>
                <Text span size="xs" fw={600}>
                  {i.car.car_number}
                </Text>{' '}
                <Text span size="xs" c="dimmed">
                  {unplacedReason(i)}
                </Text>
              </List.Item>
            ))}
          </List>
          {unplaced.length > 200 && (
            <Text size="xs" c="dimmed" mt={4}>
              {T.unplaced.more(unplaced.length - 200)}
            </Text>
          )}
        </ScrollArea.Autosize>
      </Popover.Dropdown>
    </Popover>
  );
}
