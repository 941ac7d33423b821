/** The list screens' own texts: loaded with the list shell, not with the shell every screen loads first. */
export const listTexts = {
  columns: '表示項目',
  empty: '登録されているデータがありません。',
  emptyFiltered: '検索条件に一致するデータがありません。',
  searchItem: '検索項目',
  searchText: '検索キーワード',
  clearText: 'キーワードを消去',
  search: '検索',
  showDeleted: '削除済みも表示',
};
