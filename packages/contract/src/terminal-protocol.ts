import { z } from 'zod';

/**
 * The protocol a terminal speaks (issue #14). `json` is ours (docs/device-protocol.md §1-9);
 * the others are adapters at the edge that decode into the same records.
 */
export const terminalProtocols = ['json', 'osmand', 'teltonika', 'gt06'] as const;
export type TerminalProtocol = (typeof terminalProtocols)[number];

export const terminalProtocolLabels: Record<TerminalProtocol, string> = {
  json: '独自JSON',
  osmand: 'OsmAnd（Traccar Client）',
  teltonika: 'Teltonika',
  gt06: 'GT06（Concox）',
};

/** Short labels for list columns and badges. */
export const terminalProtocolShortLabels: Record<TerminalProtocol, string> = {
  json: 'JSON',
  osmand: 'OsmAnd',
  teltonika: 'Teltonika',
  gt06: 'GT06',
};

/** Protocols with no way to send a command to the terminal: the reserve call refuses with 409. */
export const protocolsWithoutCommands: readonly TerminalProtocol[] = ['osmand'];

export const terminalProtocolMessages = {
  protocol:
    '通信プロトコルは 独自JSON, OsmAnd（Traccar Client）, Teltonika, GT06（Concox） のいずれかを選択してください',
  commandText: 'コマンド文字列は128文字以内の印字可能な文字で入力してください',
} as const;

export const terminalProtocol = () =>
  z.enum(terminalProtocols, { error: terminalProtocolMessages.protocol }).optional().default('json');

/** The immobiliser commands a binary-protocol terminal gets unless overridden on the terminal (issue #14). */
export const defaultCommandTexts: Partial<Record<TerminalProtocol, { cut: string; restore: string }>> = {
  teltonika: { cut: 'setdigout 1', restore: 'setdigout 0' },
  gt06: { cut: 'Relay,1#', restore: 'Relay,0#' },
};

/** Longest override of the cut/restore command text. */
export const COMMAND_TEXT_MAX = 128;

/**
 * An override of the immobiliser command text sent to a binary-protocol terminal
 * (e.g. `setdigout 1`, `Relay,1#`); empty = the protocol's default.
 */
export const commandText = () =>
  z
    .string({ error: terminalProtocolMessages.commandText })
    .trim()
    .max(COMMAND_TEXT_MAX, terminalProtocolMessages.commandText)
    .regex(/^[\x20-\x7e]*$/, terminalProtocolMessages.commandText)
    .optional()
    .default('');

/** Answers of the OsmAnd endpoints (docs/device-protocol.md §10). */
export const OSMAND_PATH = '/device/osmand';
export const osmandMessages = {
  noId: '端末の識別子（id または device_id にIMEI）がありません。',
  badTime: 'timestamp はUnix時刻（秒・ミリ秒）またはISO 8601形式で指定してください。',
  badNumber: '数値で指定する項目に数値以外が含まれています。',
  empty: '位置情報（lat / lon）などの記録する値がありません。',
  rejected: '位置情報の値が不正です。',
} as const;
