import { errorMessages, type Call } from '@fleet/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Pagination,
  ScrollArea,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { callApi, messageOf, type Takes } from '../../lib/api-client';
import type { CountCall, ListCall, ListFilterBody, ListPageBody } from '../list-shell/list-calls';

export interface PickerSource<Row> {
  countCall: CountCall;
  listCall: ListCall<Row>;
  /** The picker's search columns, each with its index in the list's full search columns ('0', '4', …). */
  searchColumns: { item: string; label: string }[];
  /** Body fields for both calls, e.g. `{ isRegistered: false }`. */
  filter: Record<string, unknown>;
  sort: string;
  columns: { label: string; render(row: Row): ReactNode }[];
  rowKey(row: Row): string;
  /** A note on what the list holds, e.g. '未登録のみ'. */
  hint?: string;
}

/** A picker's source, its calls checked to take what the picker sends them (ListFilterBody, ListPageBody). */
export const pickerSource = <Row, C extends Call & Takes<C, ListFilterBody>, L extends Call & Takes<L, ListPageBody>>(
  source: PickerSource<Row> & { countCall: C; listCall: L },
): PickerSource<Row> => source;

const PAGE = 10;

/** A modal that searches a list call on the server and hands back the chosen row. */
export function PickerModal<Row>({
  opened,
  onClose,
  title,
  source,
  pinned = [],
  onPick,
}: {
  opened: boolean;
  onClose(): void;
  title: string;
  source: PickerSource<Row>;
  pinned?: Row[];
  onPick(row: Row): void;
}) {
  const [item, setItem] = useState(source.searchColumns[0]?.item ?? '0');
  const [text, setText] = useState('');
  const [query, setQuery] = useState({ search_item: item, search_text: '' });
  const [page, setPage] = useState(0);
  const body: ListFilterBody = { ...query, isDelete: false, ...source.filter };
  const count = useQuery({
    queryKey: ['picker', source.countCall.path, body],
    queryFn: ({ signal }) => callApi(source.countCall, body, { signal }),
    enabled: opened,
    staleTime: 0,
  });
  const list = useQuery({
    queryKey: ['picker', source.listCall.path, body, page],
    queryFn: ({ signal }) => {
      const pageBody: ListPageBody = { ...body, offset: page * PAGE, limit: PAGE, sorts: source.sort };
      return callApi(source.listCall, pageBody, { signal });
    },
    enabled: opened,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  const pinnedKeys = new Set(pinned.map(source.rowKey));
  const rows = [...pinned, ...(list.data?.list ?? []).filter((r) => !pinnedKeys.has(source.rowKey(r)))];
  const error = count.error ?? list.error;
  const pages = Math.max(1, Math.ceil((count.data?.count ?? 0) / PAGE));

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" centered>
      <Stack gap="sm">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            // The modal sits in a portal, but React still bubbles its submit to the form around the picker.
            e.stopPropagation();
            setQuery({ search_item: item, search_text: text.trim() });
            setPage(0);
          }}
        >
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label="検索項目"
              data={source.searchColumns.map((c) => ({ value: c.item, label: c.label }))}
              value={item}
              onChange={(v) => setItem(v ?? item)}
              allowDeselect={false}
              w={150}
              comboboxProps={{ withinPortal: true, zIndex: 400 }}
            />
            <TextInput
              label="検索キーワード"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              style={{ flex: 1 }}
              miw={200}
              data-autofocus
            />
            <Button type="submit" leftSection={<IconSearch size={16} />}>
              検索
            </Button>
          </Group>
        </form>
        {error ? (
          <Alert color="red" role="alert">
            {messageOf(error, errorMessages.fetchFailed)}
          </Alert>
        ) : (
          <ScrollArea.Autosize mah={420} type="auto">
            <Table highlightOnHover verticalSpacing="xs" aria-label={`${title}の候補`}>
              <Table.Thead>
                <Table.Tr>
                  {source.columns.map((c) => (
                    <Table.Th key={c.label}>{c.label}</Table.Th>
                  ))}
                  <Table.Th w={90} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.isPending && (
                  <Table.Tr>
                    <Table.Td colSpan={source.columns.length + 1}>
                      <Skeleton h={14} />
                    </Table.Td>
                  </Table.Tr>
                )}
                {!list.isPending && rows.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={source.columns.length + 1}>
                      <Text ta="center" c="dimmed" py="md" size="sm">
                        {query.search_text
                          ? '検索条件に一致するデータがありません。'
                          : '選択できるデータがありません。'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {rows.map((row) => (
                  <Table.Tr key={source.rowKey(row)} style={{ cursor: 'pointer' }} onClick={() => onPick(row)}>
                    {source.columns.map((c) => (
                      <Table.Td key={c.label}>{c.render(row)}</Table.Td>
                    ))}
                    <Table.Td ta="right">
                      {pinnedKeys.has(source.rowKey(row)) ? (
                        <Badge variant="light" size="sm">
                          現在の登録
                        </Badge>
                      ) : (
                        <Button
                          size="compact-xs"
                          variant="light"
                          onClick={(e) => {
                            e.stopPropagation();
                            onPick(row);
                          }}
                        >
                          選択
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {source.hint && `${source.hint}・`}全{(count.data?.count ?? 0).toLocaleString('ja-JP')}件
          </Text>
          {pages > 1 && <Pagination size="sm" total={pages} value={page + 1} onChange={(p) => setPage(p - 1)} />}
        </Group>
      </Stack>
    </Modal>
  );
}
