import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useLiveStore } from '../../lib/live-feed';
import { paths } from '../../lib/paths';
import { alertCountQuery, alertKeys } from './api';
import { alertTexts as t } from './texts';

/** Asked again at most this often when the live stream brings positions (crossings come with them). */
const LIVE_THROTTLE_MS = 3_000;

/**
 * The header's bell with the unacknowledged count. It asks on an interval and, while a screen has the live
 * stream open, again (throttled) whenever positions arrive, since a zone crossing is judged as they are stored.
 */
export function AlertBadge() {
  const q = useQuery(alertCountQuery());
  const qc = useQueryClient();
  const version = useLiveStore((s) => s.version);
  const last = useRef(0);
  useEffect(() => {
    if (version === 0 || Date.now() - last.current < LIVE_THROTTLE_MS) return;
    last.current = Date.now();
    void qc.invalidateQueries({ queryKey: alertKeys.count() });
  }, [version, qc]);
  const n = q.data?.unacknowledged ?? 0;
  return (
    <Indicator label={n > 99 ? '99+' : n} size={16} color="red" disabled={n === 0} offset={4}>
      <ActionIcon
        component={Link}
        to={paths.alerts}
        variant="subtle"
        color="white"
        aria-label={t.badge(n)}
        data-testid="alert-badge"
        data-count={n}
      >
        <IconBell size={20} />
      </ActionIcon>
    </Indicator>
  );
}
