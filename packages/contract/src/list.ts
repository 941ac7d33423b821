import { z } from 'zod';
import { flag } from './fields.js';
import { validationMessages as m } from './messages.js';

/** Paging defaults of docs/product.md §9. */
export const PAGE_SIZE = 20;
export const PAGE_RANGE = 20;
export const MAX_PAGE_SIZE = 100;
export type SortDir = 'asc' | 'desc';

/** "<column> asc|desc" (docs/product.md §3); the column is checked against each list's whitelist on the server. */
export const sortString = z
  .string()
  .max(64, m.tooLong)
  .regex(/^[a-z_]+ (asc|desc)$/, m.invalid);

export const parseSort = (s: string): { column: string; dir: SortDir } => {
  const [column = '', dir] = s.split(' ');
  return { column, dir: dir === 'desc' ? 'desc' : 'asc' };
};

/** The filter part every count and list call of docs/product.md §7 shares. */
export const listFilter = {
  /** Index into the list's search columns (docs/product.md §3), as a string: '0' is the first. */
  search_item: z
    .union([z.string().regex(/^\d{1,2}$/, m.invalid), z.number().int().min(0).max(99)])
    .transform(String)
    .default('0'),
  search_text: z.string().max(255, m.tooLong).default(''),
  /** Include logically deleted rows. */
  isDelete: flag().default(false),
};
export const companyFilter = { companyId: z.string().max(64, m.tooLong).nullish() };
export const paging = {
  offset: z.number({ error: m.number }).int().min(0).max(10_000_000).default(0),
  limit: z.number({ error: m.number }).int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
  sorts: z.union([sortString, z.array(sortString).max(4)]).optional(),
};

export const CountResponse = z.object({ count: z.number().int() });
export const listResponse = <T extends z.ZodType>(row: T) => z.object({ list: z.array(row) });

/** What a list screen keeps: the saved search query of docs/product.md §3 (vehicles add isNormal and companyId). */
export interface ListQuery {
  search_item: string;
  search_text: string;
  currentPage: number;
  size: number;
  sort_item: string;
  sort_dir: SortDir;
  isShowDelete: boolean;
  companyId: string | null;
}
