/** `%term%` for LIKE, with the wildcards in the term itself escaped by '!' (use `escape '!'`). */
export function likePattern(term: string): string {
  return `%${term.replace(/[!%_]/g, '!$&')}%`;
}
