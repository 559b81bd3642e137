import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as Sdk from '@aws-sdk/client-s3';
import { ConfigError } from '../config/load-config.js';
import type { Logger } from '../logger.js';
import {
  checkedStoredName,
  newStoredName,
  noMedia,
  temporaryFile,
  type LocalCopy,
  type MediaFile,
  type MediaSource,
  type MediaStorage,
  type SavedMedia,
} from './media-storage.js';

export interface S3Options {
  /** An S3-compatible server's address (MinIO, R2, …); AWS itself when absent. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`. */
  forcePathStyle: boolean;
  /** Folder of the bucket the keys go under ('' for its root). */
  prefix: string;
}

/**
 * Media in an S3-compatible bucket, keyed `<prefix>/<companyId>/<stored name>`: every node of a
 * cluster reads what any node saved. Names follow the disk's rules (media-storage.ts). The SDK is
 * imported by the start's check, not with the module: a node on disk storage never loads it.
 */
export class S3MediaStorage implements MediaStorage {
  private sdk: Promise<{ commands: typeof Sdk; client: Sdk.S3Client }> | undefined;
  private readonly prefix: string;

  constructor(
    private readonly options: S3Options,
    private readonly log: Logger,
  ) {
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, '');
  }

  private connect(): Promise<{ commands: typeof Sdk; client: Sdk.S3Client }> {
    // On Node 20 the SDK warns on the console that its releases after January 2027 need Node 22:
    // the version pinned here runs on Node 20, which Atende supports, so the warning says nothing to its users.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.sdk ??= import('@aws-sdk/client-s3').then((commands) => ({ commands, client: this.createClient(commands) }));
    return this.sdk;
  }

  private createClient({ S3Client }: typeof Sdk): Sdk.S3Client {
    const options = this.options;
    // Without a logger the SDK writes its warnings to the console. Its per-request notes are left
    // out and its warnings kept at debug: its failures reach the callers as errors, which they log.
    const quiet = () => undefined;
    const note = (...args: unknown[]) => this.log.debug({ sdk: args.map(String) }, 's3 client');
    return new S3Client({
      logger: { trace: quiet, debug: quiet, info: quiet, warn: note, error: note },
      ...(options.endpoint && { endpoint: options.endpoint }),
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums only where S3 demands them: S3-compatible servers do not all take the chunked
      // uploads with trailing checksums that the SDK sends by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** A wrong bucket, endpoint or key fails the start with the bucket's answer, not the first upload. */
  async check(): Promise<void> {
    const { commands, client } = await this.connect();
    try {
      await client.send(new commands.HeadBucketCommand({ Bucket: this.options.bucket }));
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const where = this.options.endpoint ?? `AWS ${this.options.region}`;
      throw new ConfigError(`media storage: the bucket "${this.options.bucket}" at ${where} cannot be used (${status ? `HTTP ${status}, ` : ''}${(err as Error).name}: ${(err as Error).message})`);
    }
  }

  async save(companyId: number, originalName: string, source: MediaSource): Promise<SavedMedia> {
    const name = newStoredName(originalName);
    // A stream first: a file's read stream has a `path` too.
    if (!(source instanceof Readable)) return { name, size: await this.upload(companyId, name, source.path) };
    // PutObject needs the length before the bytes: a stream is spooled to a temporary file first.
    const spool = await temporaryFile(name);
    try {
      await pipeline(source, createWriteStream(spool.path, { flags: 'wx', mode: 0o600 }));
      return { name, size: await this.upload(companyId, name, spool.path) };
    } finally {
      await spool.release();
    }
  }

  async open(companyId: number, storedName: string): Promise<MediaFile> {
    const key = this.keyOf(companyId, storedName);
    const { commands, client } = await this.connect();
    try {
      const answer = await client.send(new commands.GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if ((err as Error).name === 'NoSuchKey' || status === 404) throw noMedia();
      throw err;
    }
  }

  async remove(companyId: number, storedName: string): Promise<void> {
    const key = this.keyOf(companyId, storedName);
    const { commands, client } = await this.connect();
    await client.send(new commands.DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  async localCopy(companyId: number, storedName: string): Promise<LocalCopy> {
    const object = await this.open(companyId, storedName);
    const copy = await temporaryFile(storedName);
    try {
      await pipeline(object.stream, createWriteStream(copy.path, { flags: 'wx', mode: 0o600 }));
      return copy;
    } catch (err) {
      await copy.release();
      throw err;
    }
  }

  /** Streams a local file into the bucket; answers its size. */
  private async upload(companyId: number, name: string, file: string): Promise<number> {
    const { size } = await stat(file);
    const { commands, client } = await this.connect();
    await client.send(new commands.PutObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(companyId, name), Body: createReadStream(file), ContentLength: size }));
    return size;
  }

  private keyOf(companyId: number, storedName: string): string {
    const key = `${Math.trunc(companyId)}/${checkedStoredName(storedName)}`;
    return this.prefix ? `${this.prefix}/${key}` : key;
  }
}
