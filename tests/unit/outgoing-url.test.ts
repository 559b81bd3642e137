import { describe, expect, it } from 'vitest';
import { sealedSecrets } from '../../core/auth/sealed-secrets.js';
import { checkOutgoingUrl } from '../../core/outgoing/outgoing-url.js';

describe('the outgoing URL check', () => {
  it.each([
    'http://127.0.0.1:8080/v1',
    'http://localhost/v1',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
  ])('refuses %s unless private URLs are allowed', async (url) => {
    await expect(checkOutgoingUrl(url, { allowPrivate: false })).rejects.toMatchObject({ code: 'ERR_URL_NOT_ALLOWED', status: 400 });
    await expect(checkOutgoingUrl(url, { allowPrivate: true })).resolves.toBeInstanceOf(URL);
  });

  it('accepts a public address and refuses what is not http', async () => {
    await expect(checkOutgoingUrl('https://8.8.8.8/v1', { allowPrivate: false })).resolves.toBeInstanceOf(URL);
    for (const url of ['ftp://8.8.8.8/', 'file:///etc/passwd', 'not a url']) {
      await expect(checkOutgoingUrl(url, { allowPrivate: true })).rejects.toMatchObject({ code: 'ERR_URL_NOT_ALLOWED' });
    }
  });
});

describe('sealed secrets', () => {
  it('opens what it sealed, never shows it in the sealed text, and refuses another purpose or an altered text', () => {
    const box = sealedSecrets('a-config-secret-of-enough-length', 'plugin:prompts');
    const sealed = box.seal('sk-very-secret');
    expect(sealed).not.toContain('sk-very-secret');
    expect(box.seal('sk-very-secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('sk-very-secret');
    expect(() => sealedSecrets('a-config-secret-of-enough-length', 'plugin:other').open(sealed)).toThrow();
    expect(() => box.open(sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA'))).toThrow();
  });
});
