import { errorMessages, type SortDir } from '@fleet/contract';
import { Alert, Anchor, Badge, Checkbox, ScrollArea, Skeleton, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiClientError } from '../../lib/api-client';
import { shellTexts } from '../../lib/texts';
import { CARDS_MEDIA, ListCards } from './list-cards';
import { ListPagination } from './list-pagination';

/** The row selection's labels (only lists with a bulk action select rows). */
const selectionTexts = {
  page: 'このページの行をすべて選択',
  row: (label: string) => `${label} を選択`,
};

export interface ListColumn<Row> {
  /** Sort key sent to the server; omit for a column that cannot be sorted. */
  sortKey?: string;
  label: string;
  render(row: Row): ReactNode;
  width?: number | string;
  /** The column can be shown or hidden in the column chooser; 'hidden' starts it hidden. */
  optional?: 'shown' | 'hidden';
}

/** The columns to draw: an optional column follows the user's choice, else its default. */
export const visibleColumns = <Row,>(columns: ListColumn<Row>[], chosen: Record<string, boolean>) =>
  columns.filter((c) => !c.optional || (chosen[c.label] ?? c.optional === 'shown'));

/** The 状態 column of a list of records that can be deleted: 削除済み or 有効. */
export const stateColumn: ListColumn<{ isDelete: boolean }> = {
  label: shellTexts.detail.state,
  render: (r) =>
    r.isDelete ? (
      <Badge color="dark">{shellTexts.detail.deleted}</Badge>
    ) : (
      <Badge color="blue" variant="light">
        {shellTexts.detail.active}
      </Badge>
    ),
};

/** The one row of a table with nothing to show. */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <Text ta="center" c="dimmed" py="xl">
          {children}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** The rows and states of a table from the query of a `{ list }` answer (a list that comes whole or paged). */
export const tableOf = <Row,>(
  q: Pick<UseQueryResult<{ list: Row[] }>, 'data' | 'isPending' | 'isFetching' | 'error'>,
) => ({
  rows: q.data?.list ?? [],
  pending: q.isPending,
  fetching: q.isFetching,
  error: q.error,
});

/** The message of a failed list: the server's reason, or the §8 fetch message (also after a lost session). */
const failure = (error: unknown) =>
  error instanceof ApiClientError && error.status !== 401 && error.message ? error.message : errorMessages.fetchFailed;

export interface ListTableProps<Row> {
  columns: ListColumn<Row>[];
  rows: Row[];
  rowKey(row: Row): string | number;
  /** Where a row leads: its first cell is a link, and a click anywhere on the row follows it. */
  rowLink?(row: Row): string;
  /** No answer yet: skeleton rows. */
  pending: boolean;
  /** A call is on its way (a new page, a new filter): the table says it is busy. */
  fetching?: boolean;
  error?: unknown;
  /** The text of an empty answer. */
  empty: string;
  /** The server-side order; sortable columns (`sortKey`) get a header button. */
  sort?: { item: string; dir: SortDir; onSort(key: string): void };
  /** The paging under the table; none for a list that comes whole. */
  paging?: { page: number; total: number; size: number; pageRange: number; onChange(page: number): void };
  /** Minimum table width before it scrolls sideways; by default about 115 px a column. */
  minWidth?: number;
  /** Narrower cell padding, for a list with many columns that must fit the window. */
  compact?: boolean;
  /** Long cells (a subject, an error) wrap; by default every row keeps to one line. */
  wrap?: boolean;
  /** Checkboxes to pick rows for a bulk action (the vehicle list), by rowKey; the header's picks the page. */
  selection?: RowSelection<Row>;
}

export interface RowSelection<Row> {
  selected: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  /** What a row's checkbox is called for a screen reader (its vehicle number). */
  label(row: Row): string;
  /** Whether a row can be picked (an alert not yet acknowledged); by default every row. */
  selectable?(row: Row): boolean;
}

/** The header checkbox: every row of the page picked, some, or none. */
function PageCheckbox<Row>({
  rows,
  rowKey,
  selection,
}: {
  rows: Row[];
  rowKey(row: Row): string | number;
  selection: RowSelection<Row>;
}) {
  const keys = rows.filter((r) => selection.selectable?.(r) ?? true).map((r) => String(rowKey(r)));
  const picked = keys.filter((k) => selection.selected.has(k)).length;
  return (
    <Checkbox
      size="xs"
      aria-label={selectionTexts.page}
      checked={picked > 0 && picked === keys.length}
      indeterminate={picked > 0 && picked < keys.length}
      disabled={keys.length === 0}
      onChange={(e) => {
        const next = new Set(selection.selected);
        for (const k of keys)
          if (e.currentTarget.checked) next.add(k);
          else next.delete(k);
        selection.onChange(next);
      }}
    />
  );
}

/** The table of a list screen: sortable headers, skeleton, empty and failure states, row links, then any paging. */
export function ListTable<Row>(props: ListTableProps<Row>) {
  const { columns, rows, sort, paging, selection } = props;
  const span = columns.length + (selection ? 1 : 0);
  const navigate = useNavigate();
  const sortOf = (c: ListColumn<Row>) => (sort && c.sortKey && sort.item === c.sortKey ? sort.dir : undefined);
  // A phone gets cards: a table of eight columns would scroll sideways at 390 px.
  const cards = useMediaQuery(CARDS_MEDIA, false, { getInitialValueInEffect: false });
  return (
    <>
      {props.error ? (
        <Alert color="red" role="alert">
          {failure(props.error)}
        </Alert>
      ) : cards ? (
        <ListCards {...props} />
      ) : (
        <ScrollArea type="auto">
          <Table
            striped
            highlightOnHover
            stickyHeader
            verticalSpacing="xs"
            horizontalSpacing={props.compact ? 6 : 'xs'}
            miw={props.minWidth ?? Math.max(800, columns.length * 115)}
            aria-busy={!!props.fetching}
            style={props.wrap ? undefined : { whiteSpace: 'nowrap' }}
          >
            <Table.Thead>
              <Table.Tr>
                {selection && (
                  <Table.Th w={28}>
                    <PageCheckbox rows={rows} rowKey={props.rowKey} selection={selection} />
                  </Table.Th>
                )}
                {columns.map((c) => (
                  <Table.Th
                    key={c.label}
                    w={c.width}
                    aria-sort={sortOf(c) ? (sortOf(c) === 'desc' ? 'descending' : 'ascending') : undefined}
                  >
                    {sort && c.sortKey ? (
                      <UnstyledButton onClick={() => sort.onSort(c.sortKey!)} fw={700} fz="sm">
                        {c.label}
                        <Text span c={sortOf(c) ? 'brand.6' : 'gray.4'} ml={4} fz="xs">
                          {sortOf(c) === 'desc' ? '▼' : '▲'}
                        </Text>
                      </UnstyledButton>
                    ) : (
                      c.label
                    )}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.pending &&
                Array.from({ length: 5 }, (_, i) => (
                  <Table.Tr key={i}>
                    {selection && <Table.Td />}
                    {columns.map((c) => (
                      <Table.Td key={c.label}>
                        <Skeleton h={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              {!props.pending && rows.length === 0 && <EmptyRow colSpan={span}>{props.empty}</EmptyRow>}
              {rows.map((row) => {
                const link = props.rowLink?.(row);
                const key = String(props.rowKey(row));
                return (
                  <Table.Tr
                    key={key}
                    style={link ? { cursor: 'pointer' } : undefined}
                    onClick={(e) =>
                      link &&
                      !(e.target as HTMLElement).closest('a,button,input,label,[data-no-link]') &&
                      navigate(link)
                    }
                  >
                    {selection && (
                      <Table.Td data-no-link>
                        {(selection.selectable?.(row) ?? true) && (
                          <Checkbox
                            size="xs"
                            aria-label={selectionTexts.row(selection.label(row))}
                            checked={selection.selected.has(key)}
                            onChange={(e) => {
                              const next = new Set(selection.selected);
                              if (e.currentTarget.checked) next.add(key);
                              else next.delete(key);
                              selection.onChange(next);
                            }}
                          />
                        )}
                      </Table.Td>
                    )}
                    {columns.map((c, i) => (
                      <Table.Td key={c.label}>
                        {i === 0 && link ? (
                          <Anchor component={Link} to={link} fw={600} size="sm">
                            {c.render(row)}
                          </Anchor>
                        ) : (
                          c.render(row)
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {paging && <ListPagination {...paging} />}
    </>
  );
}
