/** Texts of the terminal screens not given by the contract's deviceLabels. */
export const deviceTexts = {
  /** Under the protocol select when OsmAnd is chosen (docs/device-protocol.md §10.5). */
  osmandNoCommands: 'OsmAnd（Traccar Client）にはコマンドを送る経路がないため、エンジン制御はできません',
  commandTextHint: '空欄のときは既定のコマンド',
  /** After a protocol's default command text on the detail screen. */
  byDefault: (text: string) => `${text}（既定）`,
} as const;
