/** Texts of the password reset screens (request a mail, set a new password); messages come from passwordResetMessages. */
export const passwordResetTexts = {
  backToLogin: 'ログイン画面へ戻る',
  request: {
    title: 'パスワード再設定',
    lead: '登録されているメールアドレスを入力してください。パスワード再設定用のリンクをお送りします。',
    submit: '再設定メールを送信',
  },
  set: {
    title: '新しいパスワードの設定',
    toLogin: 'ログイン画面へ',
    submit: 'パスワードを変更する',
    lead: '8〜32文字の新しいパスワードを入力してください。',
    password: '新しいパスワード',
    passwordConfirm: '新しいパスワード（確認）',
  },
} as const;
