import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE, ConfigError, loadConfig } from '../../core/config/load-config.js';
import { configEntries } from '../../core/config/config.schema.js';

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'atende-config-'));
}

describe('configuration', () => {
  it('uses the defaults of DESIGN.md §2 on an empty folder', () => {
    const dir = tempDir();
    const config = loadConfig({ dir, env: {} });
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({ client: 'sqlite', filename: path.join(dir, 'data/atende.sqlite') });
    expect(config.mediaDir).toBe(path.join(dir, 'data/media'));
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('layers defaults < atende.config.json < environment < flags', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, CONFIG_FILE), JSON.stringify({ port: 9001, logLevel: 'warn', host: '127.0.0.1' }));
    expect(loadConfig({ dir, env: {} }).port).toBe(9001);
    const fromEnv = loadConfig({ dir, env: { PORT: '9002', ATENDE_LOG_LEVEL: 'debug' } });
    expect([fromEnv.port, fromEnv.logLevel, fromEnv.host]).toEqual([9002, 'debug', '127.0.0.1']);
    expect(loadConfig({ dir, env: { PORT: '9002' }, flags: { port: 9003 } }).port).toBe(9003);
  });

  it('reads a postgres address from DATABASE_URL', () => {
    const config = loadConfig({ dir: tempDir(), env: { DATABASE_URL: 'postgres://u@db:5432/atende' } });
    expect(config.database).toEqual({ client: 'pg', connectionString: 'postgres://u@db:5432/atende' });
  });

  it('names the key and its variables when a value is bad', () => {
    expect(() => loadConfig({ dir: tempDir(), env: { PORT: 'eighty' } })).toThrow(ConfigError);
    expect(() => loadConfig({ dir: tempDir(), env: { PORT: 'eighty' } })).toThrow(/port is invalid.*PORT\/ATENDE_PORT/);
    expect(() => loadConfig({ dir: tempDir(), env: { DATABASE_URL: 'mysql://x' } })).toThrow(/unsupported address/);
  });

  it('trustProxy is a count of proxy hops: true is one, false none', () => {
    const hops = (env: Record<string, string>, file?: unknown) => {
      const dir = tempDir();
      if (file !== undefined) writeFileSync(path.join(dir, CONFIG_FILE), JSON.stringify({ trustProxy: file }));
      return loadConfig({ dir, env }).trustProxy;
    };
    expect(hops({})).toBe(0);
    expect([hops({ ATENDE_TRUST_PROXY: 'true' }), hops({ ATENDE_TRUST_PROXY: '1' }), hops({}, true)]).toEqual([1, 1, 1]);
    expect([hops({ ATENDE_TRUST_PROXY: 'false' }), hops({ ATENDE_TRUST_PROXY: '0' }), hops({}, false)]).toEqual([0, 0, 0]);
    expect([hops({ ATENDE_TRUST_PROXY: '2' }), hops({}, 3)]).toEqual([2, 3]);
    expect(() => hops({ ATENDE_TRUST_PROXY: 'yes' })).toThrow(/trustProxy is invalid.*ATENDE_TRUST_PROXY/);
  });

  it('storage s3 needs its bucket and keys, named in one line; path-style follows the endpoint', () => {
    expect(loadConfig({ dir: tempDir(), env: {} }).storage).toBe('disk');
    expect(() => loadConfig({ dir: tempDir(), env: { ATENDE_STORAGE: 's3', ATENDE_S3_BUCKET: 'media' } })).toThrow(
      /^config: storage "s3" needs s3AccessKeyId \(atende\.config\.json "s3AccessKeyId" or ATENDE_S3_ACCESS_KEY_ID\/AWS_ACCESS_KEY_ID\), s3SecretAccessKey \(.*\)$/,
    );
    expect(() => loadConfig({ dir: tempDir(), env: { ATENDE_STORAGE: 'ftp' } })).toThrow(/storage is invalid.*ATENDE_STORAGE/);
    const keys = { ATENDE_STORAGE: 's3', ATENDE_S3_BUCKET: 'media', ATENDE_S3_ACCESS_KEY_ID: 'AKIA1', ATENDE_S3_SECRET_ACCESS_KEY: 'a-secret' };
    const aws = loadConfig({ dir: tempDir(), env: keys });
    expect([aws.s3Region, aws.s3ForcePathStyle, aws.s3Prefix]).toEqual(['us-east-1', false, '']);
    const minio = loadConfig({ dir: tempDir(), env: { ...keys, ATENDE_S3_ENDPOINT: 'http://minio:9000' } });
    expect(minio.s3ForcePathStyle).toBe(true);
    expect(loadConfig({ dir: tempDir(), env: { ...keys, ATENDE_S3_ENDPOINT: 'http://minio:9000', ATENDE_S3_FORCE_PATH_STYLE: 'false' } }).s3ForcePathStyle).toBe(false);
    expect(() => loadConfig({ dir: tempDir(), env: { ...keys, ATENDE_S3_ENDPOINT: 'minio:9000' } })).toThrow(/s3Endpoint is invalid/);
  });

  it('role is all by default; web and worker need redisUrl, named in one line', () => {
    expect(loadConfig({ dir: tempDir(), env: {} }).role).toBe('all');
    expect(() => loadConfig({ dir: tempDir(), env: { ATENDE_ROLE: 'web' } })).toThrow(
      /^config: role "web" needs redisUrl \(atende\.config\.json "redisUrl" or REDIS_URL\/ATENDE_REDIS_URL\)/,
    );
    expect(() => loadConfig({ dir: tempDir(), env: {}, flags: { role: 'worker' } })).toThrow(/^config: role "worker" needs redisUrl/);
    expect(loadConfig({ dir: tempDir(), env: { ATENDE_ROLE: 'worker', REDIS_URL: 'redis://127.0.0.1:6379' } }).role).toBe('worker');
    expect(() => loadConfig({ dir: tempDir(), env: { ATENDE_ROLE: 'both' } })).toThrow(/role is invalid.*ATENDE_ROLE/);
  });

  it('refuses a config file that is not JSON', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, CONFIG_FILE), '{ port: ');
    expect(() => loadConfig({ dir, env: {} })).toThrow(/not valid JSON/);
  });

  it('generates secrets once, kept in data/secrets.json readable by the owner only', () => {
    const dir = tempDir();
    const first = loadConfig({ dir, env: {} });
    const second = loadConfig({ dir, env: {} });
    expect(first.jwtSecret).toHaveLength(43);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(statSync(path.join(dir, 'data/secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('documents every key and environment variable in the README', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [key, entry] of Object.entries(configEntries)) {
      expect(readme, `README documents ${key}`).toContain(`\`${key}\``);
      for (const name of entry.env) expect(readme, `README documents ${name}`).toContain(name);
    }
  });
});
