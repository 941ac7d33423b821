import type { Call, SortDir } from '@fleet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callApi, type Takes } from '../../lib/api-client';
import type { CountCall, ListCall, ListFilterBody, ListPageBody } from './list-calls';
import { defaultListQuery, useListStore, type SavedListQuery } from './list-state';

export interface ListQueryOptions<Row, C extends Call, L extends Call> {
  /** Key under which the query is saved; also the first part of the cache keys. */
  id: string;
  /** The count call; its request must take the filter sent (ListFilterBody), or the screen does not compile. */
  countCall: C & CountCall;
  /** The list call, answering the rows; its request must take the filter and page sent (ListPageBody). */
  listCall: L & ListCall<Row>;
  defaultSort: { item: string; dir?: SortDir };
  /** Switches beyond "show deleted", e.g. the vehicle list's isNormal; sent as body fields. */
  flags?: readonly { key: string }[];
  /** Selects beyond the search (e.g. the vehicle list's group_id), saved with the query; sent when set. */
  fields?: readonly string[];
  /** Whether the company filter is sent (only for those who see several companies). */
  companyFilter?: boolean;
  /**
   * Milliseconds between refetches of the count and the page while the screen is open, for lists whose
   * rows change on their own (a notification's delivery state); omitted: fetched on demand only.
   */
  refetchInterval?: number;
}

/**
 * The state and data of one list screen: the saved query (search, sort, page, deleted switch,
 * switches, company, columns), the count and list calls sharing one filter, and the moves on them.
 */
export function useListQuery<Row, C extends Call & Takes<C, ListFilterBody>, L extends Call & Takes<L, ListPageBody>>({
  id,
  countCall,
  listCall,
  defaultSort,
  flags = [],
  fields = [],
  companyFilter = false,
  refetchInterval,
}: ListQueryOptions<Row, C, L>) {
  const base = defaultListQuery(defaultSort.item, defaultSort.dir);
  const query: SavedListQuery = { ...base, ...useListStore((s) => s.queries[id]) };
  const update = (patch: Partial<SavedListQuery>) => useListStore.getState().update(id, base, patch);

  const filter: ListFilterBody = {
    search_item: query.search_item,
    search_text: query.search_text,
    isDelete: query.isShowDelete,
    ...(companyFilter ? { companyId: query.companyId } : {}),
    ...Object.fromEntries(flags.map((f) => [f.key, !!query.flags[f.key]])),
    ...Object.fromEntries(fields.flatMap((k) => (query.fields?.[k] ? [[k, query.fields[k]]] : []))),
  };
  const count = useQuery({
    queryKey: [id, 'count', filter],
    queryFn: ({ signal }) => callApi<CountCall>(countCall, filter, { signal }),
    ...(refetchInterval ? { refetchInterval } : {}),
  });
  const list = useQuery({
    queryKey: [id, 'list', filter, query.currentPage, query.size, query.sort_item, query.sort_dir],
    queryFn: ({ signal }) => {
      const body: ListPageBody = {
        ...filter,
        offset: query.currentPage * query.size,
        limit: query.size,
        sorts: `${query.sort_item} ${query.sort_dir}`,
      };
      return callApi<ListCall<Row>>(listCall, body, { signal });
    },
    placeholderData: keepPreviousData,
    ...(refetchInterval ? { refetchInterval } : {}),
  });
  useEffect(() => {
    if (count.data && count.data.count !== query.list_cnt) update({ list_cnt: count.data.count });
    // A page past the end (rows deleted meanwhile): go to the last page.
    if (count.data && query.currentPage > 0 && query.currentPage * query.size >= count.data.count)
      update({ currentPage: Math.max(0, Math.ceil(count.data.count / query.size) - 1) });
  });

  return {
    query,
    update,
    rows: list.data?.list ?? [],
    total: count.data?.count ?? 0,
    pending: list.isPending,
    fetching: list.isFetching,
    error: count.error ?? list.error,
    sortBy: (key: string) =>
      update({
        sort_item: key,
        sort_dir: query.sort_item === key && query.sort_dir === 'asc' ? 'desc' : 'asc',
        currentPage: 0,
      }),
  };
}
