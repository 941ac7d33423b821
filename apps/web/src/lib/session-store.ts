import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The client session of docs/product.md §3, persisted in browser storage. */
export interface SessionState {
  authUser: string | null;
  name: string | null;
  role: number | null;
  token: string | null;
  isMenuActive: boolean;
  account_id: string | null;
  company_id: string | null;
  car_id: string | null;
  user_id: string | null;
  car_data_id: string | null;
  car_device_id: string | null;
  companies: { company_id: string; company_name: string }[];
}

interface SessionActions {
  signIn(login: { id: string; username: string; role: number; token: string; company_id: string | null }): void;
  signOut(): void;
  toggleMenu(): void;
  select(
    patch: Partial<Pick<SessionState, 'car_id' | 'user_id' | 'car_data_id' | 'car_device_id' | 'companies'>>,
  ): void;
}

export const SESSION_STORE_KEY = 'fleet-console/session';

const signedOut = {
  authUser: null,
  name: null,
  role: null,
  token: null,
  account_id: null,
  company_id: null,
  car_id: null,
  user_id: null,
  car_data_id: null,
  car_device_id: null,
  companies: [],
} satisfies Omit<SessionState, 'isMenuActive'>;

export const useSession = create<SessionState & SessionActions>()(
  persist(
    (set) => ({
      ...signedOut,
      isMenuActive: true,
      signIn: (l) =>
        set({
          ...signedOut,
          authUser: l.id,
          account_id: l.id,
          name: l.username,
          role: l.role,
          token: l.token,
          company_id: l.company_id,
        }),
      signOut: () => set({ ...signedOut }),
      toggleMenu: () => set((s) => ({ isMenuActive: !s.isMenuActive })),
      select: (patch) => set(patch),
    }),
    { name: SESSION_STORE_KEY, storage: createJSONStorage(() => localStorage), version: 1 },
  ),
);

/** The caller as the permission rules of the contract want it. */
export const actorOf = (s: SessionState) =>
  s.account_id && s.role !== null ? { account_id: s.account_id, role: s.role, company_id: s.company_id } : null;
