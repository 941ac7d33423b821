import { fleetStateColors, fleetStateLabels } from '@fleet/contract';
import { Badge, Group, Pagination, Stack, Text, UnstyledButton } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { FleetItem } from '../fleet-view';
import { fleetMapTexts as T } from '../texts';
import classes from './fleet-map.module.css';

const PAGE = 50;

/** The side list: the same vehicles as the map, 50 a page (10,000 rows never reach the DOM at once). */
export function FleetList({
  items,
  activeId,
  onPick,
}: {
  items: readonly FleetItem[];
  activeId: string | null;
  onPick(item: FleetItem): void;
}) {
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(items.length / PAGE));
  useEffect(() => {
    if (page > pages) setPage(1);
  }, [page, pages]);
  const rows = items.slice((page - 1) * PAGE, page * PAGE);
  return (
    <Stack gap={6} h="100%">
      <Stack
        gap={0}
        component="ul"
        aria-label={T.listLabel}
        style={{ listStyle: 'none', margin: 0, padding: 0, overflowY: 'auto', flex: 1 }}
        data-testid="fleet-list"
      >
        {rows.map((i) => (
          <li key={i.car.car_id}>
            <UnstyledButton
              className={classes.row}
              data-active={i.car.car_id === activeId}
              onClick={() => onPick(i)}
              w="100%"
              px="xs"
              py={6}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {i.car.car_number || i.car.car_id}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {i.car.car_id}・{i.car.user_name ?? ''}
                  </Text>
                </Stack>
                <Badge size="sm" variant="filled" color={fleetStateColors[i.state]} style={{ flexShrink: 0 }}>
                  {fleetStateLabels[i.state]}
                </Badge>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
      {items.length === 0 && (
        <Text size="sm" c="dimmed">
          {T.empty}
        </Text>
      )}
      {pages > 1 && (
        <Pagination
          size="sm"
          total={pages}
          value={page}
          onChange={setPage}
          siblings={1}
          boundaries={1}
          aria-label={T.pageLabel}
        />
      )}
    </Stack>
  );
}
