import type { ReactNode } from 'react';

/** Keeps a short cell value (an id, a name, a badge) on one line when the table scrolls sideways on a narrow screen. */
export const NoWrap = ({ children }: { children: ReactNode }) => (
  <span style={{ whiteSpace: 'nowrap' }}>{children}</span>
);
