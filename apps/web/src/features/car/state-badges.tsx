import {
  connectionLabel,
  deviceStateLabel,
  engineLineLabel,
  engineRunningLabel,
  type TelemetryState,
} from '@fleet/contract';
import { Badge, Tooltip, type BadgeProps } from '@mantine/core';
import { connectionView } from './connection';

/**
 * Badges for the latest terminal state, with the docs/product.md §4 wording, in the fleet map's colours
 * (fleetStateColors): 走行中 green, 停止中 blue, 禁止中 red, 切断中 grey as 通信途絶.
 */
type State =
  | (Pick<TelemetryState, 'engine_running' | 'engine_line' | 'connection' | 'device_state'> &
      Partial<Pick<TelemetryState, 'last_seen_at'>>)
  | null
  | undefined;
/** `size` makes them compact where a row shows all four (the vehicle list). */
type Props = { state: State; size?: BadgeProps['size'] };

export function RunningBadge({ state, size }: Props) {
  const v = state?.engine_running;
  return (
    <Badge size={size} variant="light" color={v === 'on' ? 'green' : v === 'off' ? 'blue' : 'yellow'}>
      {engineRunningLabel(v)}
    </Badge>
  );
}
export function EngineLineBadge({ state, size }: Props) {
  const label = engineLineLabel(state?.engine_line);
  return (
    <Badge size={size} variant="light" color={label === engineLineLabel('connected') ? 'blue' : 'red'}>
      {label}
    </Badge>
  );
}
export function ConnectionBadge({ state, size }: Props) {
  const { label, hint } = connectionView(state);
  const badge = (
    <Badge
      size={size}
      variant="dot"
      tabIndex={hint ? 0 : undefined}
      aria-description={hint}
      color={label === connectionLabel('connected') ? 'green' : 'gray'}
    >
      {label}
    </Badge>
  );
  return hint ? (
    <Tooltip label={hint} multiline w={260} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
export function DeviceStateBadge({ state, size }: Props) {
  const label = deviceStateLabel(state?.device_state);
  return (
    <Badge
      size={size}
      variant="light"
      color={label === deviceStateLabel(0) ? 'teal' : label === deviceStateLabel(1) ? 'red' : 'gray'}
    >
      {label}
    </Badge>
  );
}
