/** Texts of the mail outbox screen. */
export const mailTexts = {
  title: '送信メール一覧',
  description: '通知・パスワード再設定のメール。SMTP未設定または送信失敗のメールは送信待ちとして再送されます。',
  all: 'すべて',
  empty: 'メールはありません。',
  columns: {
    createdAt: '作成日時',
    kind: '種別',
    to: '宛先',
    subject: '件名',
    status: '状態',
    attempts: '送信回数',
    sentOrNext: '送信日時 / 次回再送',
  },
} as const;
