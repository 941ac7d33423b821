import { fleetStateColors, fleetStateLabels } from '@fleet/contract';
import { Pagination, Stack, Text } from '@mantine/core';
import { memo, useEffect, useState } from 'react';
import type { FleetItem } from '../fleet-view';
import { fleetMapTexts as T } from '../texts';
import classes from './fleet-map.module.css';

const PAGE = 50;

/**
 * One row: plain elements styled by the module's classes (Mantine's Group/Text/Badge made a live round of
 * the visible rows cost frames: bench/README.md, Measurements behind the code: Console), re-rendered only when its vehicle's item changed.
 */
const FleetRow = memo(function FleetRow({
  item,
  active,
  onPick,
}: {
  item: FleetItem;
  active: boolean;
  onPick(item: FleetItem): void;
}) {
  return (
    <li>
      <button type="button" className={classes.row} data-active={active} onClick={() => onPick(item)}>
        <span className={classes.rowText}>
          <span className={classes.rowTitle}>{item.car.car_number || item.car.car_id}</span>
          <span className={classes.rowSub}>
            {item.car.car_id}・{item.car.user_name ?? ''}
          </span>
          {item.car.address && <span className={classes.rowSub}>{item.car.address}</span>}
        </span>
        <span className={classes.badge} style={{ background: fleetStateColors[item.state] }}>
          {fleetStateLabels[item.state]}
        </span>
      </button>
    </li>
  );
});

/** The side list: the same vehicles as the map, 50 a page (10,000 rows never reach the DOM at once). */
export const FleetList = memo(function FleetList({
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
      <ul aria-label={T.listLabel} className={classes.list} data-testid="fleet-list">
        {rows.map((i) => (
          <FleetRow key={i.car.car_id} item={i} active={i.car.car_id === activeId} onPick={onPick} />
        ))}
      </ul>
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
});
