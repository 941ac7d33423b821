/** Texts of the audit log screen. */
export const auditTexts = {
  title: '操作履歴',
  description: 'アカウント・加盟店・車両・エリア・エンジン制御の変更を、誰がいつ行ったかを表示します。',
  target: '対象',
  all: 'すべて',
  targetId: '対象ID',
  empty: '操作履歴はありません。',
  columns: { at: '日時', actor: '操作者', action: '操作', target: '対象', detail: '内容' },
} as const;
