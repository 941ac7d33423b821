import type { Call } from '@fleet/contract';
import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import type { Takes } from '../../lib/api-client';
import { listTexts } from './list-texts';
import type { ListFilterBody, ListPageBody } from './list-calls';
import { isFiltered } from './list-state';
import { ListSearchBar } from './list-search-bar';
import { ListTable, visibleColumns, type ListColumn, type RowSelection } from './list-table';
import type { SavedListQuery } from './list-state';
import { useListQuery, type ListQueryOptions } from './use-list-query';

export { visibleColumns, type ListColumn } from './list-table';

interface ListShellProps<Row, C extends Call, L extends Call> extends Omit<ListQueryOptions<Row, C, L>, 'fields'> {
  searchColumns: readonly { key: string; label: string }[];
  /** The rows' type comes from the list call alone, so shared columns (`stateColumn`) fit any list. */
  columns: NoInfer<ListColumn<Row>[]>;
  rowKey(row: NoInfer<Row>): string;
  rowLink?(row: NoInfer<Row>): string;
  /** Switches beyond "show deleted", e.g. the vehicle list's isNormal; sent as body fields. */
  flags?: { key: string; label: string }[];
  /** Whether the rows can be deleted, so 削除済みも表示 means something (not for logs and histories). Default true. */
  deletable?: boolean;
  emptyMessage?: string;
  /** Minimum table width before it scrolls sideways; by default about 115 px a column. */
  minWidth?: number;
  /** Narrower cell padding, for a list with many columns that must fit the window. */
  compact?: boolean;
  /** Selects of the search row beyond the company (the vehicle list's 拠点・部署), sent as body fields. */
  fieldFilters?: {
    key: string;
    render(value: string | null, onChange: (v: string | null) => void, query: SavedListQuery): ReactNode;
  }[];
  /** Checkboxes on the rows for bulk actions. */
  selection?: RowSelection<NoInfer<Row>>;
}

/**
 * One list screen (docs/style.md "Screens"): `useListQuery` (saved query, count and list calls), the
 * search bar and the table with its paging.
 */
export function ListShell<Row, C extends Call & Takes<C, ListFilterBody>, L extends Call & Takes<L, ListPageBody>>(
  props: ListShellProps<Row, C, L>,
) {
  const list = useListQuery<Row, C, L>({ ...props, fields: props.fieldFilters?.map((f) => f.key) });
  const q = list.query;
  const columns = visibleColumns(props.columns, q.columns);
  return (
    <Paper p="md" radius="md" withBorder>
      <ListSearchBar
        query={q}
        update={list.update}
        searchColumns={props.searchColumns}
        flags={props.flags}
        deletable={props.deletable ?? true}
        companyFilter={props.companyFilter}
        extra={props.fieldFilters?.map((f) => (
          <span key={f.key}>
            {f.render(
              q.fields?.[f.key] ?? null,
              (v) => list.update({ fields: { ...q.fields, [f.key]: v }, currentPage: 0 }),
              q,
            )}
          </span>
        ))}
        optionalColumns={props.columns
          .filter((c) => c.optional)
          .map((c) => ({ label: c.label, shown: columns.includes(c) }))}
      />
      <ListTable
        columns={columns}
        rows={list.rows}
        rowKey={props.rowKey}
        rowLink={props.rowLink}
        pending={list.pending}
        fetching={list.fetching}
        error={list.error}
        empty={isFiltered(q) ? listTexts.emptyFiltered : (props.emptyMessage ?? listTexts.empty)}
        sort={{ item: q.sort_item, dir: q.sort_dir, onSort: list.sortBy }}
        minWidth={props.minWidth}
        compact={props.compact}
        selection={props.selection}
        paging={{
          page: q.currentPage,
          total: list.total,
          size: q.size,
          pageRange: q.pageRange,
          onChange: (p) => list.update({ currentPage: p }),
        }}
      />
    </Paper>
  );
}
