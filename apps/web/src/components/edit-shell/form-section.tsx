import { Divider, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled group of fields in a two-column grid (one column on small screens). */
export function FormSection({ title, children, cols = 2 }: { title: string; children: ReactNode; cols?: number }) {
  return (
    <Stack gap="sm">
      <Divider
        label={title}
        labelPosition="left"
        styles={{
          label: { fontWeight: 700, fontSize: 'var(--mantine-font-size-sm)', color: 'var(--mantine-color-gray-7)' },
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: cols }} spacing="md" verticalSpacing="sm">
        {children}
      </SimpleGrid>
    </Stack>
  );
}
