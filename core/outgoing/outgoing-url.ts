import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ErrorCode } from '../contract/error-codes.js';
import { ValidationError } from '../errors.js';

/** Addresses a tenant's URL may not reach unless the config's allowPrivateUrls is on. */
const internal = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

function isInternal(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return internal.check(address, 'ipv4');
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return internal.check(mapped[1]!, 'ipv4');
  return internal.check(address, 'ipv6');
}

function refused(url: string, why: string): ValidationError {
  return new ValidationError(`${url}: ${why}`, undefined, ErrorCode.ERR_URL_NOT_ALLOWED);
}

/**
 * The one check before any outgoing call the product makes to an address a tenant chose: http or
 * https, and, unless `allowPrivate` (the config's allowPrivateUrls), a host whose every address is
 * public: no loopback, private, link-local (cloud metadata) or unspecified address, so a tenant
 * cannot make the server probe its own network. Answers the parsed URL; 400 ERR_URL_NOT_ALLOWED.
 */
export async function checkOutgoingUrl(raw: string, options: { allowPrivate: boolean }): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused(raw, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused(raw, 'only http and https are allowed');
  if (options.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw refused(raw, 'the host name does not resolve');
  }
  if (addresses.length === 0 || addresses.some(isInternal)) throw refused(raw, 'a private, loopback or link-local address');
  return url;
}
