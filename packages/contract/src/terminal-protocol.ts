import { z } from 'zod';

/**
 * The protocol a terminal speaks (docs/device-protocol.md §10-13). `json` is ours (docs/device-protocol.md §1-9);
 * the others are adapters at the edge that decode into the same records.
 */
export const terminalProtocols = ['json', 'osmand', 'teltonika', 'gt06', 'jt808', 'h02', 'gps103', 'gl200'] as const;
export type TerminalProtocol = (typeof terminalProtocols)[number];

export const terminalProtocolLabels: Record<TerminalProtocol, string> = {
  json: '独自JSON',
  osmand: 'OsmAnd（Traccar Client）',
  teltonika: 'Teltonika',
  gt06: 'GT06（Concox）',
  jt808: 'JT/T 808',
  h02: 'H02（Sinotrack ほか）',
  gps103: 'GPS103 / TK103（Coban ほか）',
  gl200: 'Queclink @Track',
};

/** Short labels for list columns and badges. */
export const terminalProtocolShortLabels: Record<TerminalProtocol, string> = {
  json: 'JSON',
  osmand: 'OsmAnd',
  teltonika: 'Teltonika',
  gt06: 'GT06',
  jt808: 'JT808',
  h02: 'H02',
  gps103: 'GPS103',
  gl200: 'Queclink',
};

/** Protocols spoken over a TCP link of their own (their commands go out on it, not in a batch's answer). */
export const linkProtocols = [
  'teltonika',
  'gt06',
  'jt808',
  'h02',
  'gps103',
  'gl200',
] as const satisfies readonly TerminalProtocol[];
export type LinkProtocol = (typeof linkProtocols)[number];

/** Protocols with no way to send a command to the terminal: the reserve call refuses with 409. */
export const protocolsWithoutCommands: readonly TerminalProtocol[] = ['osmand'];

export const terminalProtocolMessages = {
  protocol:
    '通信プロトコルは 独自JSON, OsmAnd（Traccar Client）, Teltonika, GT06（Concox）, JT/T 808, H02, GPS103 / TK103, Queclink @Track のいずれかを選択してください',
  commandText: 'コマンド文字列は128文字以内の印字可能な文字で入力してください',
} as const;

export const terminalProtocol = () =>
  z.enum(terminalProtocols, { error: terminalProtocolMessages.protocol }).optional().default('json');

/** The immobiliser commands a binary-protocol terminal gets unless overridden on the terminal (docs/device-protocol.md §13). */
export const defaultCommandTexts: Partial<Record<TerminalProtocol, { cut: string; restore: string }>> = {
  teltonika: { cut: 'setdigout 1', restore: 'setdigout 0' },
  gt06: { cut: 'Relay,1#', restore: 'Relay,0#' },
  /** The body of a 0x8105 terminal control in hex: the command words Traccar's encoder sends. */
  jt808: { cut: 'f0', restore: 'f1' },
  /** The command and its parameters; the server adds `*HQ,<id>,` and the time (`*HQ,<id>,S20,<hhmmss>,1,1#`). */
  h02: { cut: 'S20,1,1', restore: 'S20,1,0' },
  /** The letter after `**,imei:<id>,`. */
  gps103: { cut: 'J', restore: 'K' },
  /** The whole AT command; a device with a password needs it after `=` (an override). */
  gl200: { cut: 'AT+GTOUT=,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$', restore: 'AT+GTOUT=,0,,,0,0,0,0,0,0,0,,,,,,,FFFF$' },
};

/**
 * What a terminal's id (car_data_id) looks like per protocol. Most send their 15-digit IMEI;
 * H02 devices often a 10-digit id of their own; JT/T 808 the terminal's phone number in BCD,
 * 12 digits (2011/2013 editions) or 20 (2019 edition, usually the IMEI with leading zeros).
 */
export const terminalIdRules: Record<TerminalProtocol, { pattern: RegExp; message: string }> = {
  json: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  osmand: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  teltonika: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  gt06: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  gps103: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  gl200: { pattern: /^\d{15}$/, message: 'IMEIは15桁の数字で入力してください' },
  h02: { pattern: /^(\d{10}|\d{15})$/, message: 'H02の端末IDは10桁または15桁の数字で入力してください' },
  jt808: {
    pattern: /^(\d{12}|\d{20})$/,
    message: 'JT/T 808の端末ID（端末の電話番号）は12桁または20桁の数字で入力してください',
  },
};

/** Any terminal id: the digits one of the rules above allows (a request naming an existing terminal). */
export const TERMINAL_ID_PATTERN = /^\d{10,20}$/;
export const terminalIdMessage = '端末IDは10〜20桁の数字で入力してください';

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
