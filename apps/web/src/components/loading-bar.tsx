import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';
import classes from './loading-bar.module.css';

/** docs/product.md §9: shown only when loading lasts over 200 ms; creeps to the end over 5000 ms. */
export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 5000;

export function LoadingBar() {
  const navigating = useNavigation().state !== 'idle';
  const requests = useIsFetching() + useIsMutating();
  const busy = navigating || requests > 0;
  const [phase, setPhase] = useState<'idle' | 'running' | 'done'>('idle');

  useEffect(() => {
    if (busy) {
      const t = setTimeout(() => setPhase('running'), LOADING_BAR_THROTTLE_MS);
      return () => clearTimeout(t);
    }
    setPhase((p) => (p === 'running' ? 'done' : p));
    const t = setTimeout(() => setPhase('idle'), 300);
    return () => clearTimeout(t);
  }, [busy]);

  if (phase === 'idle') return null;
  return (
    <div className={classes.track} role="progressbar" aria-label="読み込み中" aria-busy={phase === 'running'}>
      <div
        className={classes.bar}
        data-phase={phase}
        style={{ ['--loading-bar-duration' as string]: `${LOADING_BAR_DURATION_MS}ms` }}
      />
    </div>
  );
}
