import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';

/**
 * A small S3-compatible server for tests: path-style PUT/GET/HEAD/DELETE of `/<bucket>/<key>`,
 * objects kept in memory, errors answered with S3's XML bodies. Every request must carry an AWS
 * Signature V4 made with the configured key pair (the signature is checked, and so is a signed
 * payload's hash), so a client with a wrong key id or secret fails as it would on S3.
 */
export interface FakeS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The stored objects by key. */
  objects: Map<string, Buffer>;
  /** Every request that passed the signature check, in order. */
  requests: { method: string; key: string }[];
  close(): Promise<void>;
}

export interface FakeS3Options {
  bucket?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const UNSIGNED = 'UNSIGNED-PAYLOAD';

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'atende-media';
  const accessKeyId = options.accessKeyId ?? 'AKIAFAKES3TEST';
  const secretAccessKey = options.secretAccessKey ?? 'fake-s3-secret-access-key';
  const objects = new Map<string, Buffer>();
  const requests: FakeS3['requests'] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => s3Error(res, 500, 'InternalError', (err as Error).message));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await buffer(req);
    const denied = authorizationError(req, body, accessKeyId, secretAccessKey);
    if (denied) return s3Error(res, 403, denied.code, denied.message);
    const url = new URL(req.url ?? '/', 'http://fake-s3');
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (bucketName !== bucket) return s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    requests.push({ method: req.method ?? '', key });
    // HeadBucket: the bucket is there.
    if (key === '' && req.method === 'HEAD') return void res.writeHead(200).end();
    const object = objects.get(key);
    switch (req.method) {
      case 'PUT':
        objects.set(key, body);
        res.writeHead(200, { ETag: etagOf(body) }).end();
        return;
      case 'GET':
      case 'HEAD':
        if (!object) {
          if (req.method === 'HEAD') return void res.writeHead(404).end();
          return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.', key);
        }
        res.writeHead(200, { 'Content-Length': object.length, 'Content-Type': 'application/octet-stream', ETag: etagOf(object), 'Last-Modified': new Date().toUTCString() });
        res.end(req.method === 'GET' ? object : undefined);
        return;
      case 'DELETE':
        objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        return s3Error(res, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function etagOf(bytes: Buffer): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

function s3Error(res: ServerResponse, status: number, code: string, message: string, key?: string): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${key ? `<Key>${key}</Key>` : ''}<RequestId>fake-s3</RequestId></Error>`;
  res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(xml) }).end(xml);
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Checks an AWS Signature V4 `Authorization` header as S3 does; answers the S3 error when it fails. */
function authorizationError(req: IncomingMessage, body: Buffer, accessKeyId: string, secretAccessKey: string): { code: string; message: string } | undefined {
  const header = req.headers.authorization ?? '';
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(header);
  if (!parts) return { code: 'AccessDenied', message: 'Missing or malformed Authorization header' };
  const [, keyId, day, region, signedHeaders, signature] = parts as unknown as [string, string, string, string, string, string];
  if (keyId !== accessKeyId) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== UNSIGNED && payloadHash !== sha256(body)) return { code: 'XAmzContentSHA256Mismatch', message: 'The provided payload hash does not match the body' };

  const url = new URL(req.url ?? '/', 'http://fake-s3');
  const query = url.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((pair) => (pair.includes('=') ? pair : `${pair}=`))
    .sort()
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${headerValue(req, name)}\n`).join('');
  const canonicalRequest = [req.method, url.pathname, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date'] ?? ''), scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), 's3'), 'aws4_request');
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  return undefined;
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return (Array.isArray(value) ? value.join(',') : String(value ?? '')).trim().replace(/\s+/g, ' ');
}
