import { Group, Text, VisuallyHidden } from '@mantine/core';
import { IconMapPinFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { shellTexts } from '../lib/texts';

/** The product mark; in the default layout it links to the vehicle list (docs/product.md §2). */
export function Logo({ to, inverted = false }: { to?: string; inverted?: boolean }) {
  const mark = (
    <Group gap={8} wrap="nowrap">
      <IconMapPinFilled size={24} color={inverted ? 'white' : 'var(--mantine-color-brand-6)'} aria-hidden />
      <Text fw={800} size="lg" c={inverted ? 'white' : 'var(--app-brand-text)'} style={{ letterSpacing: '0.04em' }}>
        {shellTexts.productName}
      </Text>
      <Text size="xs" c={inverted ? 'brand.1' : 'dimmed'} visibleFrom="sm">
        {shellTexts.productSub}
      </Text>
    </Group>
  );
  return to ? (
    // The name is the visible text and then where it leads (an aria-label in its place would hide the visible words).
    <Link to={to} style={{ textDecoration: 'none' }}>
      {mark}
      <VisuallyHidden>（車両一覧へ）</VisuallyHidden>
    </Link>
  ) : (
    mark
  );
}
