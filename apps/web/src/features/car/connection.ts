import { connectionLabel, FLEET_OFFLINE_MINUTES, type TelemetryState } from '@fleet/contract';
import { carTexts } from './texts';

export type ConnectionInput = Pick<TelemetryState, 'connection'> & Partial<Pick<TelemetryState, 'last_seen_at'>>;

export interface ConnectionView {
  label: string;
  /** Why the label, when the terminal sends no connection state and it is read from the last report's age. */
  hint?: string;
}

/**
 * 通信 as the screens show it. A terminal that sends its connection state is believed; one that sends none (most
 * OsmAnd and Teltonika terminals) reads 接続中 while its last report is younger than the fleet map's offline time,
 * 切断中 after, so a vehicle reporting seconds ago does not read 状態不明. The hint says so (a tooltip).
 */
export function connectionView(state: ConnectionInput | null | undefined, now: Date = new Date()): ConnectionView {
  const label = connectionLabel(state?.connection);
  if (state?.connection || !state?.last_seen_at) return { label };
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(state.last_seen_at).getTime()) / 60_000));
  const fresh = minutes < FLEET_OFFLINE_MINUTES;
  return {
    label: connectionLabel(fresh ? 'connected' : 'disconnected'),
    hint: carTexts.detail.connectionDerived(minutes, FLEET_OFFLINE_MINUTES),
  };
}
