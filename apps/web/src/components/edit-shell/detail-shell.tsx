import { Alert, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DetailRow {
  label: string;
  value: ReactNode;
}

/** One detail screen body: label/value pairs, a skeleton while loading, the §8 message on failure. */
export function DetailShell({
  rows,
  loading,
  error,
  children,
}: {
  rows: DetailRow[];
  loading: boolean;
  error?: string | null;
  children?: ReactNode;
}) {
  if (error)
    return (
      <Alert color="red" role="alert">
        {error}
      </Alert>
    );
  return (
    <Paper p="lg" radius="md" withBorder maw={880}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
          {(loading ? Array.from({ length: 6 }, (_, i) => ({ label: String(i), value: null })) : rows).map((r) => (
            <div key={r.label}>
              {loading ? (
                <Skeleton h={36} />
              ) : (
                <>
                  <Text size="xs" c="dimmed" fw={600}>
                    {r.label}
                  </Text>
                  <Text size="sm" component="div" style={{ wordBreak: 'break-all' }}>
                    {r.value === '' || r.value === null || r.value === undefined ? '—' : r.value}
                  </Text>
                </>
              )}
            </div>
          ))}
        </SimpleGrid>
        {children}
      </Stack>
    </Paper>
  );
}
