/** Texts of the account screens that the contract does not carry (labels: accountLabels). */
export const accountTexts = {
  engineControlOn: 'あり',
  engineControlOff: 'なし',
  engineControlHint: 'エンジン始動の許可・禁止と、その予約リクエストができます。',
  headOffice: '本部（所属なし）',
} as const;
