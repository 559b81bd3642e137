/**
 * SQLite's fold of a searched text: lower() for ASCII letters, then each accented Latin letter of
 * FOLDED_LETTERS to its bare one, so that "promoção", "PROMOÇÃO" and "promocao" are the same
 * text. Plain SQL (nested replace calls), so that a trigger computes it on every connection with no
 * function to register. The message_search table (migration 20261127080000) holds bodies folded so,
 * and a searched term is folded by foldLikeSqlite, which must give the same text.
 */
export const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  a: 'àáâãäåÀÁÂÃÄÅ',
  e: 'èéêëÈÉÊË',
  i: 'ìíîïÌÍÎÏ',
  o: 'òóôõöÒÓÔÕÖ',
  u: 'ùúûüÙÚÛÜ',
  c: 'çÇ',
  n: 'ñÑ',
  y: 'ýÿÝ',
};

const BARE = new Map<string, string>(Object.entries(FOLDED_LETTERS).flatMap(([bare, accented]) => [...accented].map((c): [string, string] => [c, bare])));

/** `text` folded as the SQL of sqliteFold folds it: ASCII letters lowered, the accented letters of FOLDED_LETTERS bare, anything else kept. */
export function foldLikeSqlite(text: string): string {
  let out = '';
  for (const c of text.normalize('NFC')) out += BARE.get(c) ?? (c >= 'A' && c <= 'Z' ? c.toLowerCase() : c);
  return out;
}
