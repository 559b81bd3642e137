import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenService } from '../../core/auth/tokens.js';

const secrets = { jwtSecret: 'access-secret-for-tests-0123456789', jwtRefreshSecret: 'refresh-secret-for-tests-012345678' };
const claims = { id: 7, companyId: 3, profile: 'user', tokenVersion: 2 };

describe('access tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a token verified before from what it kept, and refuses it once it expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T12:00:00Z'));
    const tokens = new TokenService(secrets, { access: 60, refresh: 3600 });
    const token = await tokens.signAccess(claims);
    expect(await tokens.verifyAccess(token)).toMatchObject(claims);
    expect(await tokens.verifyAccess(token)).toMatchObject(claims);

    vi.setSystemTime(new Date('2026-11-28T12:00:59Z'));
    expect(await tokens.verifyAccess(token)).toMatchObject(claims);
    vi.setSystemTime(new Date('2026-11-28T12:01:00Z'));
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ status: 401 });
    // Forgotten, not revived: the signature check refuses it too.
    await expect(tokens.verifyAccess(token)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a token signed with another secret or changed, whatever it kept', async () => {
    const tokens = new TokenService(secrets, { access: 60, refresh: 3600 });
    const token = await tokens.signAccess(claims);
    await tokens.verifyAccess(token);
    const forged = await new TokenService({ ...secrets, jwtSecret: 'another-secret-0123456789abcdefgh' }, { access: 60, refresh: 3600 }).signAccess(claims);
    await expect(tokens.verifyAccess(forged)).rejects.toMatchObject({ status: 401 });
    const [header, payload, signature] = token.split('.');
    const raised = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), profile: 'admin' })).toString('base64url');
    await expect(tokens.verifyAccess(`${header}.${raised}.${signature}`)).rejects.toMatchObject({ status: 401 });
  });
});
