import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { validationMessages as m } from './messages.js';
import { timestamp } from './wire.js';

/**
 * Terminal identity on the TCP links (Teltonika, GT06: the IMEI is all they send).
 * What is promised and what the operator should set: docs/security.md "Terminal identity".
 */

/** `TERMINAL_TAKEOVER`: what a second login for an IMEI with a live link gets. */
export const terminalTakeoverModes = ['refuse', 'replace'] as const;
export type TerminalTakeoverMode = (typeof terminalTakeoverModes)[number];

/** One TCP link of a terminal: its source address and when it logged in. */
export const CommandLink = z.object({ address: z.string(), connected_at: timestamp() });
export type CommandLink = z.output<typeof CommandLink>;

/** Whether the answer came on another link than the one the command went out on. */
export const linkChanged = (sent: z.input<typeof CommandLink> | null, answer: z.input<typeof CommandLink> | null) =>
  sent !== null &&
  answer !== null &&
  (sent.address !== answer.address ||
    new Date(sent.connected_at).getTime() !== new Date(answer.connected_at).getTime());

export const terminalIdentityTexts = {
  /** The alert of a second connection (both addresses). */
  duplicateWhat: (live: string, other: string, taken: boolean) =>
    taken
      ? `接続中の端末（接続元 ${live}）と同じIMEIで、別の接続元 ${other} から接続がありました。設定（TERMINAL_TAKEOVER=replace）により新しい接続に切り替えました`
      : `接続中の端末（接続元 ${live}）と同じIMEIで、別の接続元 ${other} から接続がありました。新しい接続は拒否しました`,
  newAddressWhat: (address: string) => `端末がこれまでに使っていない接続元 ${address} から接続しました`,
  /** The engine screen's warning on a command whose answer came on another link. */
  linkChangedWarning:
    '送信後に端末の接続が切り替わっています。応答は送信先とは別の接続から届きました。車両が実際に受信したか確認してください。',
  sentOn: '送信した接続',
  answeredOn: '応答した接続',
  /** The company setting. */
  policyTitle: '端末の接続元の通知',
  policyLabel: '端末が新しい接続元から接続したら通知する',
  policyHint:
    'TCP端末（Teltonika・GT06）がこれまでに使っていない接続元アドレスからログインしたとき、「端末の新しい接続元」の通知を送ります（通知設定でこの項目を有効にしたアカウントに届きます）。',
  policySaved: '端末の接続元の通知の設定を保存しました。',
} as const;

/** `{address} (接続 {time})` as the engine screen shows a link. */
export const linkLabel = (link: CommandLink, formatTime: (iso: string) => string) =>
  `${link.address}（${formatTime(link.connected_at)} 接続）`;

/** A company's terminal-identity settings: its company admins (own company) and the super admin. */
export const CompanyTerminalPolicyRequest = z.object({ company_id: idField() });
export const CompanyTerminalPolicyResponse = z.object({
  company_id: z.string(),
  alert_new_terminal_address: z.boolean(),
});
export const companyTerminalPolicy = defineCall(
  '/api/company_terminal_policy',
  CompanyTerminalPolicyRequest,
  CompanyTerminalPolicyResponse,
);

export const CompanyTerminalPolicyUpdateRequest = z.object({
  company_id: idField(),
  alert_new_terminal_address: z.boolean({ error: m.invalid }),
});
export const companyTerminalPolicyUpdate = defineCall(
  '/api/company_terminal_policy_update',
  CompanyTerminalPolicyUpdateRequest,
  z.object({ ok: z.boolean() }),
);
