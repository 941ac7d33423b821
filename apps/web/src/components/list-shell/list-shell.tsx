import { errorMessages, type Call, type SortDir } from '@fleet/contract';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Paper,
  Popover,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconColumns, IconSearch, IconX } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiClientError, callApi, type Takes } from '../../lib/api-client';
import { shellTexts } from '../../lib/texts';
import { CompanySelect } from '../company-select';
import type { CountCall, ListCall, ListFilterBody, ListPageBody } from './list-calls';
import { ListPagination } from './list-pagination';
import { defaultListQuery, isFiltered, useListStore, type SavedListQuery } from './list-state';

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

interface ListShellProps<Row, C extends Call, L extends Call> {
  /** Key under which the query is saved. */
  id: string;
  /** The count call; its request must take the filter sent (ListFilterBody), or the screen does not compile. */
  countCall: C & CountCall;
  /** The list call, answering the rows; its request must take the filter and page sent (ListPageBody). */
  listCall: L & ListCall<Row>;
  searchColumns: readonly { key: string; label: string }[];
  columns: ListColumn<Row>[];
  rowKey(row: Row): string;
  rowLink?(row: Row): string;
  defaultSort: { item: string; dir?: SortDir };
  /** Switches beyond "show deleted", e.g. the vehicle list's isNormal; sent as body fields. */
  flags?: { key: string; label: string }[];
  /** Whether to show the company filter (only for those who see several companies). */
  companyFilter?: boolean;
  /** Extra body fields for both calls. */
  extraBody?: Record<string, unknown>;
  emptyMessage?: string;
  /** Minimum table width before it scrolls sideways; by default about 115 px a column. */
  minWidth?: number;
  /** Narrower cell padding, for a list with many columns that must fit the window. */
  compact?: boolean;
}

/** One list screen: search, sort, paging, deleted switch, company filter, empty state (STYLE.md "Screens"). */
export function ListShell<Row, C extends Call & Takes<C, ListFilterBody>, L extends Call & Takes<L, ListPageBody>>(
  props: ListShellProps<Row, C, L>,
) {
  const { id, countCall, listCall, searchColumns, defaultSort, flags = [], companyFilter = false } = props;
  const base = defaultListQuery(defaultSort.item, defaultSort.dir);
  const q: SavedListQuery = { ...base, ...useListStore((s) => s.queries[id]) };
  const columns = visibleColumns(props.columns, q.columns);
  const optional = props.columns.filter((c) => c.optional);
  const update = (patch: Partial<SavedListQuery>) => useListStore.getState().update(id, base, patch);
  const [text, setText] = useState(q.search_text);
  const [item, setItem] = useState(q.search_item);
  useEffect(() => setText(q.search_text), [q.search_text]);
  const navigate = useNavigate();

  const filter: ListFilterBody = {
    search_item: q.search_item,
    search_text: q.search_text,
    isDelete: q.isShowDelete,
    ...(companyFilter ? { companyId: q.companyId } : {}),
    ...Object.fromEntries(flags.map((f) => [f.key, !!q.flags[f.key]])),
    ...props.extraBody,
  };
  const count = useQuery({
    queryKey: [id, 'count', filter],
    queryFn: ({ signal }) => callApi<CountCall>(countCall, filter, { signal }),
  });
  const list = useQuery({
    queryKey: [id, 'list', filter, q.currentPage, q.size, q.sort_item, q.sort_dir],
    queryFn: ({ signal }) => {
      const body: ListPageBody = {
        ...filter,
        offset: q.currentPage * q.size,
        limit: q.size,
        sorts: `${q.sort_item} ${q.sort_dir}`,
      };
      return callApi<ListCall<Row>>(listCall, body, { signal });
    },
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.list ?? [];
  const total = count.data?.count ?? 0;
  useEffect(() => {
    if (count.data && count.data.count !== q.list_cnt) update({ list_cnt: count.data.count });
    // A page past the end (rows deleted meanwhile): go to the last page.
    if (count.data && q.currentPage > 0 && q.currentPage * q.size >= count.data.count)
      update({ currentPage: Math.max(0, Math.ceil(count.data.count / q.size) - 1) });
  });

  const error = count.error ?? list.error;
  const sortBy = (key: string) =>
    update({ sort_item: key, sort_dir: q.sort_item === key && q.sort_dir === 'asc' ? 'desc' : 'asc', currentPage: 0 });
  const submit = () => update({ search_text: text.trim(), search_item: item, currentPage: 0 });

  return (
    <Paper p="md" radius="md" withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Group gap="sm" align="flex-end" wrap="wrap" mb="md">
          <Select
            label="検索項目"
            data={searchColumns.map((c, i) => ({ value: String(i), label: c.label }))}
            value={item}
            onChange={(v) => setItem(v ?? '0')}
            allowDeselect={false}
            w={160}
          />
          <TextInput
            label="検索キーワード"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={260}
            rightSection={
              text ? (
                <UnstyledButton
                  aria-label="キーワードを消去"
                  onClick={() => {
                    setText('');
                    update({ search_text: '', currentPage: 0 });
                  }}
                >
                  <IconX size={14} />
                </UnstyledButton>
              ) : null
            }
          />
          <Button type="submit" leftSection={<IconSearch size={16} />}>
            検索
          </Button>
          {companyFilter && (
            <CompanySelect value={q.companyId} onChange={(companyId) => update({ companyId, currentPage: 0 })} />
          )}
          <Group gap="md" ml="auto">
            {optional.length > 0 && (
              <Popover position="bottom-end" withinPortal shadow="md">
                <Popover.Target>
                  <Button variant="default" size="xs" leftSection={<IconColumns size={14} />}>
                    {shellTexts.list.columns}
                  </Button>
                </Popover.Target>
                <Popover.Dropdown>
                  <Stack gap={8} role="group" aria-label={shellTexts.list.columns}>
                    {optional.map((c) => (
                      <Checkbox
                        key={c.label}
                        size="xs"
                        label={c.label}
                        checked={columns.includes(c)}
                        onChange={(e) => update({ columns: { ...q.columns, [c.label]: e.currentTarget.checked } })}
                      />
                    ))}
                  </Stack>
                </Popover.Dropdown>
              </Popover>
            )}
            {flags.map((f) => (
              <Switch
                key={f.key}
                label={f.label}
                checked={!!q.flags[f.key]}
                onChange={(e) => update({ flags: { ...q.flags, [f.key]: e.currentTarget.checked }, currentPage: 0 })}
              />
            ))}
            <Switch
              label="削除済みも表示"
              checked={q.isShowDelete}
              onChange={(e) => update({ isShowDelete: e.currentTarget.checked, currentPage: 0 })}
            />
          </Group>
        </Group>
      </form>

      {error ? (
        <Alert color="red" role="alert">
          {error instanceof ApiClientError && error.status !== 401 ? error.message : errorMessages.fetchFailed}
        </Alert>
      ) : (
        <ScrollArea type="auto">
          <Table
            striped
            highlightOnHover
            stickyHeader
            verticalSpacing="xs"
            horizontalSpacing={props.compact ? 6 : 'xs'}
            miw={props.minWidth ?? Math.max(800, columns.length * 115)}
            aria-busy={list.isFetching}
            style={{ whiteSpace: 'nowrap' }}
          >
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th
                    key={c.label}
                    w={c.width}
                    aria-sort={
                      c.sortKey && q.sort_item === c.sortKey
                        ? q.sort_dir === 'desc'
                          ? 'descending'
                          : 'ascending'
                        : undefined
                    }
                  >
                    {c.sortKey ? (
                      <UnstyledButton onClick={() => sortBy(c.sortKey!)} fw={700} fz="sm">
                        {c.label}
                        <Text span c={q.sort_item === c.sortKey ? 'brand.6' : 'gray.4'} ml={4} fz="xs">
                          {q.sort_item === c.sortKey && q.sort_dir === 'desc' ? '▼' : '▲'}
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
              {list.isPending &&
                Array.from({ length: 5 }, (_, i) => (
                  <Table.Tr key={i}>
                    {columns.map((c) => (
                      <Table.Td key={c.label}>
                        <Skeleton h={14} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              {!list.isPending && rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Text ta="center" c="dimmed" py="xl">
                      {isFiltered(q) ? shellTexts.list.emptyFiltered : (props.emptyMessage ?? shellTexts.list.empty)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {rows.map((row) => {
                const link = props.rowLink?.(row);
                return (
                  <Table.Tr
                    key={props.rowKey(row)}
                    style={link ? { cursor: 'pointer' } : undefined}
                    onClick={(e) => link && !(e.target as HTMLElement).closest('a,button') && navigate(link)}
                  >
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
      <ListPagination
        page={q.currentPage}
        total={total}
        size={q.size}
        pageRange={q.pageRange}
        onChange={(p) => update({ currentPage: p })}
      />
    </Paper>
  );
}
