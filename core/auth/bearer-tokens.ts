import type { ApiScope } from './api-scopes.js';

/** Who a bearer token of a registered kind acts as: a user of its company, with the token's scopes. */
export interface BearerIdentity {
  /** The token's own id and name, carried on the caller as `apiToken`: the author of what it does. */
  tokenId: number;
  tokenName: string;
  companyId: number;
  /** The user of that company the token acts through (its creator): their id goes where the core records who acted. */
  userId: number;
  scopes: readonly ApiScope[];
}

/** Answers the identity of a token with the registered prefix, or null when it is unknown or revoked (401). */
export type BearerResolver = (token: string) => Promise<BearerIdentity | null>;

const PREFIX = /^[a-z]{2,10}_$/;

/**
 * Kinds of bearer token other than the session's JWT, told apart by their prefix (`atk_…`). A
 * plugin registers one with `app.auth.registerBearer(prefix, resolve)`.
 */
export class BearerTokens {
  private readonly kinds = new Map<string, { resolve: BearerResolver; owner: string }>();

  register(prefix: string, resolve: BearerResolver, owner: string): void {
    if (!PREFIX.test(prefix)) throw new Error(`${owner}: a bearer prefix is 2 to 10 lowercase letters and an underscore (atk_), not ${JSON.stringify(prefix)}`);
    const taken = this.kinds.get(prefix);
    if (taken) throw new Error(`${owner}: the bearer prefix ${prefix} is already ${taken.owner}'s`);
    this.kinds.set(prefix, { resolve, owner });
  }

  /** The resolver of the token's kind, or undefined for any other token (a session's JWT). */
  resolverOf(token: string): BearerResolver | undefined {
    for (const [prefix, kind] of this.kinds) if (token.startsWith(prefix)) return kind.resolve;
    return undefined;
  }
}
