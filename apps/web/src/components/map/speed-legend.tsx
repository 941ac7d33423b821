import { Group, Text } from '@mantine/core';
import { speedBands, UNKNOWN_SPEED_COLOR } from './speed-bands';

/** What the route line's colours mean (RouteLayer bySpeed). */
export function SpeedLegend({ title, unknown }: { title: string; unknown: string }) {
  const items = [
    ...speedBands.map((b) => ({ color: b.color, label: b.label })),
    { color: UNKNOWN_SPEED_COLOR, label: unknown },
  ];
  return (
    <Group gap="xs" wrap="wrap" data-testid="speed-legend" role="group" aria-label={title}>
      <Text size="xs" c="dimmed">
        {title}
      </Text>
      {items.map((i) => (
        <Group key={i.label} gap={4} wrap="nowrap">
          <span style={{ width: 18, height: 4, borderRadius: 2, background: i.color, display: 'inline-block' }} />
          <Text size="xs">{i.label}</Text>
        </Group>
      ))}
    </Group>
  );
}
