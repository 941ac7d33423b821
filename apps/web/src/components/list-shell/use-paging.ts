import { PAGE_RANGE, PAGE_SIZE } from '@fleet/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { tableOf } from './list-table';

/**
 * The page of a list whose query is not saved (logs, outboxes): the request's offset and limit, a
 * reset for a new filter, and `table(q)`: the rows, states and paging `ListTable` takes from the
 * query of a `{ count, list }` answer.
 */
export function usePaging(size = PAGE_SIZE) {
  const [page, setPage] = useState(0);
  return {
    request: { offset: page * size, limit: size },
    reset: () => setPage(0),
    table: <Row>(
      q: Pick<UseQueryResult<{ list: Row[]; count: number }>, 'data' | 'isPending' | 'isFetching' | 'error'>,
    ) => ({
      ...tableOf(q),
      paging: { page, total: q.data?.count ?? 0, size, pageRange: PAGE_RANGE, onChange: setPage },
    }),
  };
}
