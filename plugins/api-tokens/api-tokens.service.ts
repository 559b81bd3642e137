import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode, ForbiddenError, isAdmin, NotFoundError, PlanFeatureDisabledError, type ApiScope, type AuthUser, type BearerIdentity, type PluginApp } from 'atende/plugin';
import { CompanyApiToken } from './api-token.model.js';
import type { ApiTokenScope, CompanyApiTokenView, NewCompanyApiToken } from './api-tokens.contract.js';
import type { CreateApiTokenInput } from './api-tokens.schema.js';

/** Recognizable in logs and secret scanners; 32 random bytes after it. */
export const TOKEN_PREFIX = 'atk_';
export const FLAG = 'useExternalApi';
const NOT_FOUND = ErrorCode.ERR_NO_API_TOKEN_FOUND;
/** Last use is written at most this often per token, not on every request. */
const LAST_USED_EVERY_MS = 60_000;

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function scopesOf(row: CompanyApiToken): ApiTokenScope[] {
  return row.scopes.split(',').filter(Boolean) as ApiTokenScope[];
}

function view(row: CompanyApiToken): CompanyApiTokenView {
  return { id: row.id, name: row.name, scopes: scopesOf(row), hint: row.hint, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

/**
 * Company API tokens: admins make named tokens with scopes, shown once and kept as a sha256
 * hash (32 random bytes need no slow hash), list and revoke them. A token acts through the admin
 * who made it, as its company, on the routes its scopes allow (the core's bearer hook).
 */
export class CompanyApiTokens {
  constructor(private readonly app: PluginApp) {}

  async list(actor: AuthUser): Promise<CompanyApiTokenView[]> {
    assertPerson(actor);
    const rows = await CompanyApiToken.query(this.app.db).where({ companyId: actor.companyId }).whereNull('revokedAt').orderBy('id', 'desc');
    return rows.map(view);
  }

  async create(actor: AuthUser, input: CreateApiTokenInput): Promise<NewCompanyApiToken> {
    assertPerson(actor);
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row = await CompanyApiToken.query(this.app.db).insertAndFetch({
      companyId: actor.companyId,
      userId: actor.id,
      name: input.name,
      scopes: input.scopes.join(','),
      tokenHash: tokenHash(token),
      hint: token.slice(0, TOKEN_PREFIX.length + 4),
    });
    this.app.log.info({ apiTokenId: row.id, companyId: row.companyId, userId: actor.id, scopes: row.scopes }, 'API token created');
    return { ...view(row), token };
  }

  /** Stops the token at once; another company's token, or one already revoked, is not found. */
  async revoke(actor: AuthUser, id: number): Promise<void> {
    assertPerson(actor);
    const changed = await CompanyApiToken.query(this.app.db).patch({ revokedAt: new Date().toISOString() }).where({ id, companyId: actor.companyId }).whereNull('revokedAt');
    if (changed === 0) throw new NotFoundError(NOT_FOUND, 'No such API token');
    this.app.log.info({ apiTokenId: id, companyId: actor.companyId, userId: actor.id }, 'API token revoked');
  }

  /** The bearer hook: who a live token acts as, or null (401). A company whose plan lacks the flag gets 403. */
  async resolve(token: string): Promise<BearerIdentity | null> {
    const row = await CompanyApiToken.query(this.app.db).findOne({ tokenHash: tokenHash(token) }).whereNull('revokedAt');
    if (!row) return null;
    if (!(await this.app.services.plans.isEnabled(row.companyId, FLAG))) throw new PlanFeatureDisabledError(FLAG);
    const now = Date.now();
    if (!row.lastUsedAt || now - Date.parse(row.lastUsedAt) >= LAST_USED_EVERY_MS) {
      await CompanyApiToken.query(this.app.db).findById(row.id).patch({ lastUsedAt: new Date(now).toISOString() });
    }
    return { tokenId: row.id, tokenName: row.name, companyId: row.companyId, userId: row.userId, scopes: scopesOf(row) as ApiScope[] };
  }
}

/** Admins manage tokens from a session; a token never reaches these routes (no scope names them). */
function assertPerson(actor: AuthUser): void {
  if (!isAdmin(actor) || actor.apiToken !== undefined) throw new ForbiddenError();
}
