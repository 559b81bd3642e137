import { createHash, randomBytes } from 'node:crypto';
import { ForbiddenError, isAdmin, NotFoundError, ErrorCode, UnauthorizedError, type AuthUser, type PluginApp } from 'atende/plugin';
import { ApiToken } from './api-token.model.js';
import type { ApiTokenView, NewApiToken } from './messages-api.contract.js';

/** Recognizable in logs and secret scanners; 32 random bytes after it. */
const TOKEN_PREFIX = 'atd_';

const ERR_API_TOKEN = ErrorCode.ERR_INVALID_API_TOKEN;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function view(row: ApiToken): ApiTokenView {
  return { connectionId: row.connectionId, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

/** The connection whose bearer a request carries. */
export interface TokenHolder {
  tokenId: number;
  companyId: number;
  connectionId: number;
}

/**
 * Connection tokens of the external messages API (spec §7, with whaticket's empty-token flaw
 * fixed): made by the server, shown once, kept as a sha256 hash, one live token per connection.
 */
export class ApiTokensService {
  constructor(private readonly app: PluginApp) {}

  async list(actor: AuthUser): Promise<ApiTokenView[]> {
    assertAdmin(actor);
    const rows = await ApiToken.query(this.app.db).where({ companyId: actor.companyId }).whereNull('revokedAt').orderBy('connectionId');
    return rows.map(view);
  }

  /** A new token for the connection; the one it had stops working at once. */
  async generate(actor: AuthUser, connectionId: number): Promise<NewApiToken> {
    assertAdmin(actor);
    await this.assertConnection(actor.companyId, connectionId);
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    const row = await this.app.db.transaction(async (trx) => {
      const current = await ApiToken.query(trx).findOne({ connectionId });
      const fields = { tokenHash: tokenHash(token), revokedAt: null, lastUsedAt: null, createdAt: now };
      if (current) return current.$query(trx).patchAndFetch(fields);
      return ApiToken.query(trx).insertAndFetch({ companyId: actor.companyId, connectionId, ...fields });
    });
    return { ...view(row), token };
  }

  async revoke(actor: AuthUser, connectionId: number): Promise<void> {
    assertAdmin(actor);
    await this.assertConnection(actor.companyId, connectionId);
    await ApiToken.query(this.app.db).patch({ revokedAt: new Date().toISOString() }).where({ connectionId, companyId: actor.companyId }).whereNull('revokedAt');
  }

  /** The holder of a bearer token; 401 for a missing, empty, unknown or revoked one. */
  async authenticate(header: string | undefined): Promise<TokenHolder> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token) throw new UnauthorizedError(ERR_API_TOKEN, 'A connection token is required: Authorization: Bearer <token>');
    const row = await ApiToken.query(this.app.db).findOne({ tokenHash: tokenHash(token) }).whereNull('revokedAt');
    if (!row) throw new UnauthorizedError(ERR_API_TOKEN, 'This token is not valid');
    await ApiToken.query(this.app.db).findById(row.id).patch({ lastUsedAt: new Date().toISOString() });
    return { tokenId: row.id, companyId: row.companyId, connectionId: row.connectionId };
  }

  private async assertConnection(companyId: number, connectionId: number): Promise<void> {
    const [connection] = await this.app.services.whatsapps.summaries(companyId, [connectionId]);
    if (!connection) throw new NotFoundError(ErrorCode.ERR_NO_WAPP_FOUND);
  }
}

function assertAdmin(actor: AuthUser): void {
  if (!isAdmin(actor)) throw new ForbiddenError();
}
