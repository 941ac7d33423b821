import type { BadgeColor, Labelled } from '@fleet/contract';
import { Badge, type BadgeProps } from '@mantine/core';

/** The spec's badge colours (docs/product.md §2): blue, white, yellow, red, black, transparent; white text at 4.5:1 or better. */
const styles: Record<BadgeColor, { bg: string; c: string; bd?: string }> = {
  blue: { bg: 'var(--mantine-color-blue-8)', c: 'white' },
  white: { bg: 'white', c: 'var(--mantine-color-gray-8)', bd: '1px solid var(--mantine-color-gray-4)' },
  yellow: { bg: 'var(--mantine-color-yellow-4)', c: 'var(--mantine-color-dark-8)' },
  red: { bg: 'var(--mantine-color-red-9)', c: 'white' },
  black: { bg: 'var(--mantine-color-dark-7)', c: 'white' },
  transparent: { bg: 'transparent', c: 'var(--app-muted-text)', bd: '1px dashed var(--mantine-color-gray-4)' },
};

export function StatusBadge({
  value,
  fallback = '不明',
  size,
}: {
  value: Labelled | undefined;
  fallback?: string;
  size?: BadgeProps['size'];
}) {
  const s = styles[value?.color ?? 'white'];
  return (
    <Badge
      size={size}
      radius="sm"
      variant="filled"
      style={{ background: s.bg, color: s.c, border: s.bd ?? 'none' }}
      fw={600}
    >
      {value?.label ?? fallback}
    </Badge>
  );
}
