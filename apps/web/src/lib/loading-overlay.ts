import { create } from 'zustand';

/** The default layout's loading overlay (docs/product.md §9): hides after a caller-given delay or on cancel. */
interface OverlayState {
  visible: boolean;
  show(hideAfterMs?: number): void;
  cancel(): void;
}
let timer: ReturnType<typeof setTimeout> | undefined;

export const useLoadingOverlay = create<OverlayState>()((set) => ({
  visible: false,
  show: (hideAfterMs) => {
    clearTimeout(timer);
    set({ visible: true });
    if (hideAfterMs !== undefined) timer = setTimeout(() => set({ visible: false }), hideAfterMs);
  },
  cancel: () => {
    clearTimeout(timer);
    set({ visible: false });
  },
}));
