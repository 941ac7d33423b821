import { PHONE_EXAMPLE } from '@fleet/contract';

/** Texts of the customer screens not given by the contract's carUserLabels. */
export const carUserTexts = {
  list: {
    title: '顧客一覧',
    add: '顧客登録',
    name: '氏名',
    headOffice: '本部',
    car: '車両',
    noCar: '未登録',
  },
  detail: {
    title: '顧客詳細',
    heading: (u: { first_name: string; name: string; user_id: string }) => `${u.first_name} ${u.name}（${u.user_id}）`,
    noun: '顧客',
    subject: (u: { first_name: string; name: string }) => `${u.first_name} ${u.name} さん`,
    name: '氏名',
    noCompany: '所属なし（本部）',
    postal: (code: string) => `〒${code}`,
    work: '勤務先',
  },
  addTitle: '顧客登録',
  editTitle: '顧客編集',
  /** The customer form (car-user-fields.tsx), section by section. */
  fields: {
    basic: '基本情報',
    contract: '契約',
    address: '住所',
    work: '勤務先',
    other: 'その他',
    noCompany: '所属なし（本部）',
    birthdayFormat: '例: 1985-04-12（1985/04/12 も可）',
    genderNone: '未選択',
    phoneExample: `例: ${PHONE_EXAMPLE}`,
    postalExample: '123-4567',
  },
  /** The customer's vehicles on its detail (car-user-cars.tsx). */
  cars: {
    empty: '登録されている車両はありません。',
  },
} as const;
