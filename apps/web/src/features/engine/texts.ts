/** Texts of the engine screen that the contract does not carry (its messages live in engineMessages). */
export const engineTexts = {
  prohibitTitle: 'エンジン始動禁止',
  prohibitLabel: '禁止する',
  prohibitNow: (carNumber: string) =>
    `${carNumber} のエンジン始動を禁止します。車両が走行中でもエンジンは止まりませんが、次回から始動できなくなります。確認のため車両番号を入力してください。`,
  prohibitAt: (carNumber: string, at: string) =>
    `${at} に ${carNumber} のエンジン始動を禁止する予約をします。実行後は次回から始動できなくなります。確認のため車両番号を入力してください。`,
  carNumber: '車両番号',
  password: 'パスワード',
  otp: '確認コード（6桁）',
  cancelReason: '取消理由',
  cancelledBy: (name: string) => `取り消し: ${name}`,
} as const;
