/** Texts of the franchise company screens not given by the contract's companyLabels. */
export const companyTexts = {
  list: { title: '加盟店一覧', add: '加盟店登録' },
  detail: { title: '加盟店詳細', noun: '加盟店' },
  form: { idHint: '半角英数字・ハイフン・アンダースコア' },
  addTitle: '加盟店登録',
  editTitle: '加盟店編集',
} as const;
