/** What the company API tokens' routes answer, shared by the server and the web page. */

/** The scopes a token may hold: read or write on each resource (write includes read). */
export type ApiTokenScope = `${'contacts' | 'tickets' | 'messages' | 'tags' | 'queues'}:${'read' | 'write'}`;

/** GET /api-tokens: the company's live tokens, newest first, never the token itself. */
export interface CompanyApiTokenView {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  /** The token's first characters (atk_AbCd), to tell it apart. */
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /api-tokens: the new token, shown this once. */
export interface NewCompanyApiToken extends CompanyApiTokenView {
  token: string;
}
