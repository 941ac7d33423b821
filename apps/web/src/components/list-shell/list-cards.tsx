import { Anchor, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ListColumn } from './list-table';

/** The width up to which a list shows cards instead of a table (a phone held upright). */
export const CARDS_MEDIA = '(max-width: 600px)';

interface ListCardsProps<Row> {
  columns: ListColumn<Row>[];
  rows: Row[];
  rowKey(row: Row): string | number;
  rowLink?(row: Row): string;
  pending: boolean;
  fetching?: boolean;
  empty: ReactNode;
}

/**
 * A list on a phone: one card per row, its first column as the title (the link) and every other column as
 * 「見出し 値」 lines that wrap, so nothing scrolls sideways. The same columns as the table, in its order.
 */
export function ListCards<Row>({ columns, rows, rowKey, rowLink, pending, fetching, empty }: ListCardsProps<Row>) {
  const navigate = useNavigate();
  const [first, ...rest] = columns;
  if (pending)
    return (
      <Stack gap="xs">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} h={90} radius="md" />
        ))}
      </Stack>
    );
  if (rows.length === 0)
    return (
      <Text ta="center" c="dimmed" py="xl">
        {empty}
      </Text>
    );
  return (
    <Stack gap="xs" role="list" aria-busy={!!fetching}>
      {rows.map((row) => {
        const link = rowLink?.(row);
        return (
          <Card
            key={rowKey(row)}
            withBorder
            radius="md"
            padding="sm"
            role="listitem"
            style={link ? { cursor: 'pointer' } : undefined}
            onClick={(e) => link && !(e.target as HTMLElement).closest('a,button') && navigate(link)}
          >
            {first && (
              <Text fw={700} size="sm" mb={4}>
                {link ? (
                  <Anchor component={Link} to={link} fw={700} size="sm">
                    {first.render(row)}
                  </Anchor>
                ) : (
                  first.render(row)
                )}
              </Text>
            )}
            <Stack gap={4}>
              {rest.map((c) => (
                <Group key={c.label} gap="xs" wrap="nowrap" align="flex-start">
                  <Text size="xs" c="dimmed" w={84} style={{ flexShrink: 0 }}>
                    {c.label}
                  </Text>
                  <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>{c.render(row)}</div>
                </Group>
              ))}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
