import type { FleetCar } from '@fleet/contract';
import { useMemo, useRef } from 'react';
import { useLiveStore } from '../../lib/live-feed';
import { judgeItems, type FleetItem, type JudgedFleet } from './fleet-view';

/**
 * The fetched vehicles with the live feed's newest states, judged incrementally: a push (one
 * store version per 16 ms at most) judges only the vehicles it changed.
 */
export function useFleetItems(cars: readonly FleetCar[], now: Date): FleetItem[] {
  const version = useLiveStore((s) => s.version);
  const last = useRef<JudgedFleet | null>(null);
  return useMemo(() => {
    // `version` tells the store's states (updated in place) changed.
    void version;
    last.current = judgeItems(last.current, cars, useLiveStore.getState().states, now);
    return last.current.items;
  }, [cars, version, now]);
}
