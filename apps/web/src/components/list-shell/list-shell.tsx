import type { Call } from '@fleet/contract';
import { Paper } from '@mantine/core';
import type { Takes } from '../../lib/api-client';
import { shellTexts } from '../../lib/texts';
import type { ListFilterBody, ListPageBody } from './list-calls';
import { isFiltered } from './list-state';
import { ListSearchBar } from './list-search-bar';
import { ListTable, visibleColumns, type ListColumn } from './list-table';
import { useListQuery, type ListQueryOptions } from './use-list-query';

export { visibleColumns, type ListColumn } from './list-table';

interface ListShellProps<Row, C extends Call, L extends Call> extends ListQueryOptions<Row, C, L> {
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
}

/**
 * One list screen (docs/style.md "Screens"): `useListQuery` (saved query, count and list calls), the
 * search bar and the table with its paging.
 */
export function ListShell<Row, C extends Call & Takes<C, ListFilterBody>, L extends Call & Takes<L, ListPageBody>>(
  props: ListShellProps<Row, C, L>,
) {
  const list = useListQuery<Row, C, L>(props);
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
        empty={isFiltered(q) ? shellTexts.list.emptyFiltered : (props.emptyMessage ?? shellTexts.list.empty)}
        sort={{ item: q.sort_item, dir: q.sort_dir, onSort: list.sortBy }}
        minWidth={props.minWidth}
        compact={props.compact}
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
