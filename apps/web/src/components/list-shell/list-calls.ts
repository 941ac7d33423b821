import type { Call } from '@fleet/contract';
import type { z } from 'zod';

/**
 * What a list screen and a record picker send to a count call: the filter every list takes (the contract's
 * listFilter), the company filter where shown, and the screen's own switches and fields.
 */
export interface ListFilterBody {
  search_item: string;
  search_text: string;
  isDelete: boolean;
  companyId?: string | null;
  [field: string]: unknown;
}

/** What they send to a list call: the filter, one page and its order (the contract's paging). */
export interface ListPageBody extends ListFilterBody {
  offset: number;
  limit: number;
  sorts: string;
}

/** A count call as the shells call it; that its request takes a ListFilterBody is checked with `Takes`. */
export type CountCall = Call<z.ZodType, z.ZodType<{ count: number }>>;

/** A list call answering rows of Row; that its request takes a ListPageBody is checked with `Takes`. */
export type ListCall<Row> = Call<z.ZodType, z.ZodType<{ list: Row[] }>>;
