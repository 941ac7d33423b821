import type { Capabilities } from '@fleet/contract';
import { useMatches } from 'react-router';

/** What the router knows of a screen: its tab title and who may use it (the permission matrix). */
export interface ScreenHandle {
  title: string;
  allow?(caps: Capabilities): boolean;
}

/** A route's `handle`: the screen's title and, for a screen not everyone may use, its capability. */
export const screen = (title: string, allow?: (caps: Capabilities) => boolean): ScreenHandle => ({ title, allow });

const isScreen = (h: unknown): h is ScreenHandle =>
  typeof h === 'object' && h !== null && typeof (h as ScreenHandle).title === 'string';

/** The handle of the deepest matched screen, if any. */
export function useScreen(): ScreenHandle | undefined {
  return useMatches()
    .map((m) => m.handle)
    .filter(isScreen)
    .at(-1);
}
