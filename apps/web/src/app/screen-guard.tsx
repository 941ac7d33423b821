import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { CapabilityGate } from '../components/capability-gate';
import { documentTitle } from '../lib/texts';
import { useScreen } from './screen';

/**
 * The one route-level guard: a screen whose handle names a capability the user lacks shows its
 * title and the refusal instead of its content, so no form or button appears that the server
 * would refuse. It also gives the browser tab the screen's title.
 */
export function ScreenGuard({ children }: { children: ReactNode }) {
  const screen = useScreen();
  if (!screen?.allow) return <>{children}</>;
  return (
    <CapabilityGate allow={screen.allow} title={screen.title}>
      {children}
    </CapabilityGate>
  );
}

/** Sets the browser tab title from the matched screen (「車両一覧 | フリートコンソール」). */
export function useDocumentTitle() {
  const title = useScreen()?.title;
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
