import { Group, Pagination, Text } from '@mantine/core';

/** Paging with the spec's page range (docs/product.md §9): up to 20 page buttons around the current page. */
export function ListPagination({
  page,
  total,
  size,
  pageRange,
  onChange,
}: {
  page: number;
  total: number;
  size: number;
  pageRange: number;
  onChange(page: number): void;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  const from = total === 0 ? 0 : page * size + 1;
  const to = Math.min(total, (page + 1) * size);
  return (
    <Group justify="space-between" mt="md" wrap="wrap">
      <Text size="sm" c="dimmed" data-testid="list-range">
        全{total.toLocaleString('ja-JP')}件中 {from.toLocaleString('ja-JP')}〜{to.toLocaleString('ja-JP')}件を表示
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page + 1}
          onChange={(p) => onChange(p - 1)}
          siblings={Math.floor((pageRange - 3) / 2)}
          boundaries={1}
          size="sm"
          getControlProps={(control) => ({
            'aria-label': { first: '最初のページ', previous: '前のページ', last: '最後のページ', next: '次のページ' }[
              control
            ],
          })}
          getItemProps={(p) => ({ 'aria-label': `${p}ページ` })}
        />
      )}
    </Group>
  );
}
