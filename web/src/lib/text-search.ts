/** Lower case without accents, so 'elec' finds 'Électricité'. */
function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase('fr-FR');
}

/** Whether any of the fields contains the query (an empty query matches everything). */
export function matchesSearch(query: string, ...fields: readonly (string | null | undefined)[]): boolean {
  const wanted = foldForSearch(query.trim());
  if (!wanted) return true;
  return fields.some((field) => typeof field === 'string' && foldForSearch(field).includes(wanted));
}
