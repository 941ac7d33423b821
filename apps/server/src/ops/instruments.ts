import { channel } from 'node:diagnostics_channel';

/**
 * What the gateway tells the metrics, without depending on them: one message
 * per committed transaction of the group commit (metrics.ts subscribes).
 */
export interface GatewayCommit {
  /** Batches stored by the transaction. */
  batches: number;
  /** Records those batches carried (accepted or not). */
  records: number;
}
export const gatewayCommits = channel('fleet:gateway:commit');
export const reportGatewayCommit = (commit: GatewayCommit) => {
  if (gatewayCommits.hasSubscribers) gatewayCommits.publish(commit);
};
