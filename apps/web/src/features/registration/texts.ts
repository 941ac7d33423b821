/** Texts of the registration wizard (新規登録ウィザード); field labels come from the contract. */
export const registrationTexts = {
  description:
    '新しい顧客・GPS端末・車両を1台分、順に入力してまとめて登録します。最後に「この内容で登録する」を押すまで何も登録されません。',
  /** The steps, in order (registration-wizard.tsx); the summary's sections carry the same titles. */
  steps: {
    user: '顧客情報',
    device: 'GPS端末',
    car: '車両情報',
    confirm: '確認',
    done: '完了',
  },
  back: '戻る',
  next: '次へ',
  register: 'この内容で登録する',
  /** The confirmation step (wizard-summary.tsx). */
  summary: {
    name: '氏名',
    noCompany: '所属なし（本部）',
    postal: (code: string) => `〒${code}`,
    range: (latMin: string, latMax: string, lngMin: string, lngMax: string) =>
      `緯度 ${latMin}〜${latMax} / 経度 ${lngMin}〜${lngMax}`,
    noRange: '設定なし',
    edit: '修正',
    editSection: (title: string) => `${title}を修正`,
  },
  /** The last step (wizard-done.tsx). */
  done: {
    title: '登録が完了しました',
    message: (r: { user_id: string; car_device_id: string; car_id: string }) =>
      `顧客 ${r.user_id}、GPS端末 ${r.car_device_id}、車両 ${r.car_id} を登録しました。`,
    toCar: '車両詳細へ',
    toUser: '顧客詳細へ',
    toDevice: 'GPS端末詳細へ',
    again: '続けて登録する',
  },
} as const;
