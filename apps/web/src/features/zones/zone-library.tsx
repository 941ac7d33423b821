import { capabilities, zoneShapeLabels, type Zone } from '@fleet/contract';
import { Badge, Button, Card, Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListTable, tableOf, type ListColumn } from '../../components/list-shell/list-table';
import { MapHost } from '../../components/map/map-host';
import { actorOf, useSession } from '../../lib/session-store';
import { useDeleteZone, zoneListQuery } from './api';
import { zoneTexts as t } from './texts';
import { ZoneEditor } from './zone-editor';
import { ZoneShapeLayer } from './zone-shape-layer';

/** The company's zones: on a map and in a list, added and edited by drawing. */
export function ZoneLibrary() {
  const actor = actorOf(useSession());
  const mayEdit = !!actor && capabilities(actor).editCarsAndCustomers;
  const q = useQuery(zoneListQuery());
  const remove = useDeleteZone();
  const [editing, setEditing] = useState<Zone | 'new' | null>(null);
  const columns: ListColumn<Zone>[] = [
    {
      label: t.columns.name,
      render: (z) => (
        <Group gap={6} wrap="nowrap">
          <span style={{ width: 10, height: 10, borderRadius: 5, background: z.color, display: 'inline-block' }} />
          {z.name}
        </Group>
      ),
    },
    { label: t.columns.shape, render: (z) => <Badge variant="light">{zoneShapeLabels[z.shape]}</Badge> },
    {
      label: t.columns.size,
      render: (z) => (z.shape === 'circle' ? t.radius(z.radius_m ?? 0) : t.vertices(z.points?.length ?? 0)),
    },
    { label: t.columns.cars, render: (z) => `${z.car_count} 台` },
    ...(mayEdit
      ? [
          {
            label: t.columns.actions,
            render: (z: Zone) => (
              <Group gap={4} wrap="nowrap">
                <Button size="compact-xs" variant="light" onClick={() => setEditing(z)}>
                  {t.edit}
                </Button>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => window.confirm(t.confirmDelete(z.name)) && remove.mutate(z.zone_id)}
                >
                  {t.delete}
                </Button>
              </Group>
            ),
          },
        ]
      : []),
  ];
  if (editing)
    return (
      <Card withBorder>
        <ZoneEditor zone={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      </Card>
    );
  return (
    <Stack gap="md">
      {mayEdit && (
        <Group>
          <Button onClick={() => setEditing('new')}>{t.add}</Button>
        </Group>
      )}
      <MapHost height={320}>
        {(q.data?.list ?? []).map((z) => (
          <ZoneShapeLayer key={z.zone_id} zone={z} />
        ))}
      </MapHost>
      <ListTable columns={columns} rowKey={(z) => z.zone_id} {...tableOf(q)} empty={t.empty} minWidth={600} />
    </Stack>
  );
}
