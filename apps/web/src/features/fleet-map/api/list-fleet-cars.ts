import { carMapList, type CallResponse } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { useSession } from '../../../lib/session-store';

export const fleetMapKeys = {
  all: ['fleet-map'] as const,
  list: (companyId: string | null, groupId: string | null = null) => ['fleet-map', 'list', companyId, groupId] as const,
};

const STALE_MS = 60_000;
type Answer = CallResponse<typeof carMapList>;

/** The answer the route's loader asked for, waiting for the screen's first query; when the last answer came. */
let early: { token: string; at: number; answer: Promise<Answer> } | null = null;
let answeredAt = 0;

/**
 * Called by the route's loader, before the screen's chunk (Leaflet and all) has loaded: the
 * vehicles of the default view (every vehicle of the caller's scope) are asked for at once, and
 * the screen's query takes that answer instead of asking again. Nothing is asked when the last
 * answer is still fresh (the query has it cached).
 */
export function prefetchFleetCars() {
  const token = useSession.getState().token;
  if (!token || Date.now() - answeredAt < STALE_MS) return;
  const answer = callApi(carMapList, {}, { fast: true });
  answer.catch(() => undefined); // the query reports it, if it takes this answer
  early = { token, at: Date.now(), answer };
}

/** The loader's answer for the default view, once, if it is the same session's and recent. */
function takeEarly(companyId: string | null, groupId: string | null): Promise<Answer> | null {
  const e = early;
  early = null;
  return e &&
    companyId === null &&
    groupId === null &&
    e.token === useSession.getState().token &&
    Date.now() - e.at < 10_000
    ? e.answer
    : null;
}

/**
 * Every vehicle of the caller's scope (one company for the super admin when chosen; one group's when
 * chosen, docs/groups.md); live updates merge over it.
 * Up to 10,000 rows and more: parsed through the contract's fast path (lib/fast-parse).
 */
export const fleetCarsQuery = (companyId: string | null, groupId: string | null = null) =>
  queryOptions({
    queryKey: fleetMapKeys.list(companyId, groupId),
    queryFn: async ({ signal }) => {
      const body = { ...(companyId ? { company_id: companyId } : {}), ...(groupId ? { group_id: groupId } : {}) };
      const r = await (takeEarly(companyId, groupId) ?? callApi(carMapList, body, { signal, fast: true }));
      answeredAt = Date.now();
      return r;
    },
    select: (r) => r.list,
    staleTime: STALE_MS,
  });
