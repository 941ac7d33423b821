import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { alertCountQuery } from './api';
import { useLiveAlertCount } from './alert-live';
import { alertTexts as t } from './texts';

/**
 * The header's bell with the unacknowledged count. The server pushes the count as it changes (an alert
 * added or acknowledged on any instance); only while that stream is down does the bell ask on an interval.
 */
export function AlertBadge() {
  const live = useLiveAlertCount();
  const q = useQuery({ ...alertCountQuery(), refetchInterval: live ? false : alertCountQuery().refetchInterval });
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
