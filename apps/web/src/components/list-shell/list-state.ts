import { PAGE_RANGE, PAGE_SIZE, type SortDir } from '@fleet/contract';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The saved search query of a list (docs/product.md §3), kept across navigation and reloads. */
export interface SavedListQuery {
  search_item: string;
  search_text: string;
  currentPage: number;
  size: number;
  pageRange: number;
  list_cnt: number;
  dispCnt: number;
  sort_item: string;
  sort_dir: SortDir;
  isShowDelete: boolean;
  companyId: string | null;
  /** List-specific switches, e.g. the vehicle list's isNormal. */
  flags: Record<string, boolean>;
  /** List-specific selects sent as body fields when set, e.g. the vehicle list's group_id. */
  fields?: Record<string, string | null>;
  /** Columns shown or hidden by hand in the column chooser, by label; the others follow the screen's default. */
  columns: Record<string, boolean>;
}

export const defaultListQuery = (sort_item: string, sort_dir: SortDir = 'asc'): SavedListQuery => ({
  search_item: '0',
  search_text: '',
  currentPage: 0,
  size: PAGE_SIZE,
  pageRange: PAGE_RANGE,
  list_cnt: 0,
  dispCnt: PAGE_SIZE,
  sort_item,
  sort_dir,
  isShowDelete: false,
  companyId: null,
  flags: {},
  columns: {},
});

/** Whether the saved query narrows the list (a keyword, a switch such as 正常な車両のみ, or a company). */
export const isFiltered = (q: SavedListQuery) =>
  !!q.search_text ||
  Object.values(q.flags).some(Boolean) ||
  !!q.companyId ||
  Object.values(q.fields ?? {}).some(Boolean);

interface ListStore {
  queries: Record<string, SavedListQuery>;
  update(id: string, base: SavedListQuery, patch: Partial<SavedListQuery>): void;
  reset(): void;
}

export const useListStore = create<ListStore>()(
  persist(
    (set) => ({
      queries: {},
      update: (id, base, patch) =>
        set((s) => ({ queries: { ...s.queries, [id]: { ...base, ...s.queries[id], ...patch } } })),
      reset: () => set({ queries: {} }),
    }),
    { name: 'fleet-console/list-queries', storage: createJSONStorage(() => localStorage), version: 1 },
  ),
);
