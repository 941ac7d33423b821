import type { BadgeColor, Labelled } from '@fleet/contract';
import { Badge, type BadgeProps } from '@mantine/core';

/** The spec's badge colours (docs/product.md §2): blue, white, yellow, red, black, transparent. */
const styles: Record<BadgeColor, { bg: string; c: string; bd?: string }> = {
  blue: { bg: 'var(--mantine-color-blue-6)', c: 'white' },
  white: { bg: 'white', c: 'var(--mantine-color-gray-8)', bd: '1px solid var(--mantine-color-gray-4)' },
  yellow: { bg: 'var(--mantine-color-yellow-4)', c: 'var(--mantine-color-dark-8)' },
  red: { bg: 'var(--mantine-color-red-7)', c: 'white' },
  black: { bg: 'var(--mantine-color-dark-7)', c: 'white' },
  transparent: { bg: 'transparent', c: 'var(--mantine-color-gray-7)', bd: '1px dashed var(--mantine-color-gray-4)' },
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
