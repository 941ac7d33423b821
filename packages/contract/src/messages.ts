/**
 * Japanese texts the spec states word for word (docs/product.md §5, §6, §8), plus the
 * ones it leaves "not shown" that we had to write ourselves (docs/decisions.md).
 */
export const validationMessages = {
  required: '必須項目です',
  minValue: '年齢が不正です',
  maxValue: '年齢が不正です',
  min: '8文字以上で入力してください',
  /** The spec's wording, kept even where it does not match the bound (docs/product.md §5). */
  max: '32文字以上で入力してください',
  email: 'メールアドレスの形式が不正です',
  confirmed: 'パスワードが一致しません',
  tooLong: '入力が長すぎます',
  invalid: '入力内容が不正です',
  date: '日付の形式が不正です（YYYY-MM-DD）',
  number: '数値で入力してください',
  dateRange: '開始日時と終了日時の両方を入力してください',
} as const;

export const sessionMessages = {
  missingSession: '有効なセッション情報が見つかりません。ログインしなおしてください。',
  invalidToken:
    'ログイン情報が失効しました。お手数ですが、再度ログインください。 ログインしなおしても改善されない場合は、管理者に問い合わせてください。',
  loginFailed: 'ログインに失敗しました。ログイン情報を確認してください。',
  tooManyAttempts: 'ログインの試行回数が上限に達しました。しばらく時間をおいてから再度お試しください。',
  tokenCheckFailed: 'ログイン情報の確認に失敗しました。管理者に問い合わせてください。',
  sessionIdFailed: '選択情報の保存に失敗しました。管理者に問い合わせてください。',
} as const;

export const errorMessages = {
  fetchFailed: '情報を取得できませんでした。管理者に問い合わせてください。',
  addFailed: '登録に失敗しました。管理者に問い合わせてください。',
  updateFailed: '更新に失敗しました。管理者に問い合わせてください。',
  deleteFailed: '削除に失敗しました。管理者に問い合わせてください。',
  imeiInUse: '入力されたIMEIは既に使用されています。',
  idGenerationFailed: 'IDの生成に失敗しました。管理者に問い合わせてください。',
  badRequest: '入力内容に誤りがあります。',
  unauthorized: sessionMessages.invalidToken,
  forbidden: 'この操作を行う権限がありません。',
  notFound: '対象の情報が見つかりません。',
  pageNotFound: 'このページは存在しません。',
  generic: 'エラーが発生しました。',
  conflict: '既に登録されています。',
  unavailable: 'サーバーが一時的に利用できません。しばらくしてから再度お試しください。',
  internal: 'サーバーでエラーが発生しました。管理者に問い合わせてください。',
} as const;
