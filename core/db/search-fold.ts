import type BetterSqlite3 from 'better-sqlite3';

/**
 * How SQLite folds searched text, as atende_fold (lower(unaccent())) does on PostgreSQL: the case
 * of every script, the combining marks of composed letters dropped ("Ç" is "c", "ά" is "α", "ễ" is
 * "e"), and the letters whose stroke is part of them (ł, ø, đ) and the ligatures spelt bare. The
 * search tables' triggers call it as the SQL function atende_fold, registered on every connection
 * that writes (registerSearchFold); a searched term is folded by the same function, so both sides
 * agree whatever the script.
 */

/** The blocks of combining diacritical marks (not the vowel signs of Indic scripts, which are letters' parts). */
// eslint-disable-next-line no-misleading-character-class -- a class of combining marks, alone, on purpose
const MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/** Letters with no decomposition that unaccent still spells bare; ς is σ wherever the word ends. */
const SPELT: Readonly<Record<string, string>> = { ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ı: 'i', ŧ: 't', ß: 'ss', æ: 'ae', œ: 'oe', þ: 'th', ς: 'σ' };
const SPELT_LETTERS = new RegExp(`[${Object.keys(SPELT).join('')}]`, 'g');

/** Without it, lowering is the whole fold. */
const NOT_ASCII = /[^\p{ASCII}]/u;

export function foldText(text: string): string {
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  // Lowered first: "İ" lowers to "i" and a combining dot, which the marks step then drops.
  return text.toLowerCase().normalize('NFD').replace(MARKS, '').replace(SPELT_LETTERS, (c) => SPELT[c]!);
}

/** Registers atende_fold on a SQLite connection: the search tables' triggers call it (migration 20261128000000). */
export function registerSearchFold(connection: Pick<BetterSqlite3.Database, 'function'>): void {
  connection.function('atende_fold', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldText(text) : text));
}
