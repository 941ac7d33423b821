/** Texts of the account screens that the contract does not carry (labels: accountLabels). */
export const accountTexts = {
  engineControlOn: 'あり',
  engineControlOff: 'なし',
  engineControlHint: 'エンジン始動の許可・禁止と、その予約リクエストができます。',
  headOffice: '本部（所属なし）',
  list: { title: '管理アカウント一覧', add: '管理アカウント登録', headOffice: '本部' },
  detail: {
    title: '管理アカウント詳細',
    heading: (name: string, id: string) => `${name}（${id}）`,
    noun: 'アカウント',
    subject: (name: string) => `${name} さんのアカウント`,
    deleteNote: 'ログイン中のセッションも無効になります。',
    changePassword: 'パスワード変更',
  },
  addTitle: '管理アカウント登録',
  editTitle: '管理アカウント編集',
  /** `/account/password_reset`: the signed-in user's own password. */
  password: {
    title: 'パスワード変更',
    description: '現在のパスワードと新しいパスワード（8〜32文字）を入力してください。',
    done: 'パスワードを変更しました。',
    submit: '変更する',
    length: '8〜32文字',
  },
  /** The account form (account-form.tsx). */
  form: {
    idGenerated: '自動生成されます（変更可）',
    regenerateId: 'IDを再生成',
    passwordOnChange: '変更する場合のみ入力（8〜32文字）',
    passwordLength: '8〜32文字',
  },
} as const;
