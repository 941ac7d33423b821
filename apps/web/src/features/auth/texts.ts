/** Texts of the login screen; its failure messages come from the contract's sessionMessages. */
export const authTexts = {
  title: 'ログイン',
  lead: '管理コンソールにログインしてください',
  username: 'ログインID またはメールアドレス',
  password: 'パスワード',
  submit: 'ログイン',
  otpLead: '二段階認証が有効なアカウントです。認証アプリに表示されている6桁の確認コードを入力してください。',
  otp: '確認コード（6桁）',
  otpSubmit: '確認してログイン',
  recoveryLead:
    '認証アプリが使えない場合は、二段階認証の設定時に保管したリカバリーコードを入力してください（各コード1回のみ）。',
  recoveryCode: 'リカバリーコード',
  useRecoveryCode: 'リカバリーコードを使う',
  useOtp: '認証アプリの確認コードを使う',
  back: '別のアカウントでログインする',
  forgotPassword: 'パスワードをお忘れの方はこちら',
} as const;
