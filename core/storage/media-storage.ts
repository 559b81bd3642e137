import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, chmod, copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError } from '../errors.js';
import { ErrorCode } from '../contract/error-codes.js';

/** What is saved: a file on this machine (an upload's temporary copy) or a stream of bytes. */
export type MediaSource = { path: string } | Readable;

export interface SavedMedia {
  /** The stored name: unique in the company, a plain file name, never a path. */
  name: string;
  size: number;
}

export interface MediaFile {
  stream: Readable;
  size: number;
}

/** A stored file as a file on this machine, for senders that read from disk; release() when done. */
export interface LocalCopy {
  path: string;
  release(): Promise<void>;
}

/**
 * Where media lives: `<companyId>/<file>` on the disk (DiskMediaStorage) or in an S3-compatible
 * bucket that every node of a cluster reads (S3MediaStorage, DESIGN.md §3). Bytes go through
 * streams: nothing here holds a whole file in memory.
 */
export interface MediaStorage {
  /** At start: fails, with the reason, when the storage cannot be reached or written. */
  check(): Promise<void>;
  /** Saves under a new unique name derived from `originalName`. */
  save(companyId: number, originalName: string, source: MediaSource): Promise<SavedMedia>;
  /** A stored file to read; NotFoundError (ERR_NO_MEDIA_FOUND) when there is none by that name. */
  open(companyId: number, storedName: string): Promise<MediaFile>;
  remove(companyId: number, storedName: string): Promise<void>;
  /**
   * The stored file as a local file (WhatsApp drivers send from disk): the file itself on the disk,
   * a temporary download elsewhere. NotFoundError (ERR_NO_MEDIA_FOUND) when there is none.
   */
  localCopy(companyId: number, storedName: string): Promise<LocalCopy>;
}

/** Runs `use` on a local copy of a stored file, released afterwards whatever `use` does. */
export async function withLocalCopy<T>(media: MediaStorage, companyId: number, storedName: string, use: (file: string) => Promise<T>): Promise<T> {
  const copy = await media.localCopy(companyId, storedName);
  try {
    return await use(copy.path);
  } finally {
    await copy.release();
  }
}

/** The original name's share of a stored name, extension included (the unique prefix is never cut). */
const ORIGINAL_PART_MAX = 100;
/** A longer "extension" is part of the name, not a type. */
const EXTENSION_MAX = 16;

/** At most `max` characters, cut from the end of the stem so that the extension stays. */
function shortened(name: string, max: number): string {
  if (name.length <= max) return name;
  const extension = path.extname(name).length <= EXTENSION_MAX ? path.extname(name) : '';
  return name.slice(0, max - extension.length) + extension;
}

/**
 * The original name as the readable tail of a stored name: ASCII letters, digits, dot, dash and
 * underscore; its start and its extension kept when it is shortened.
 */
export function storedNamePart(originalName: string): string {
  const base = path.basename(originalName.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
  return shortened(base.replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '') || 'file', ORIGINAL_PART_MAX);
}

/** The name a file is shown and downloaded with: the original one, without folders or control characters, fit for its column. */
export function displayFileName(originalName: string): string {
  return shortened(path.basename(originalName.replace(/[\p{Cc}\p{Cf}]/gu, '')), 255) || 'file';
}

/** `<ms>-<8 hex>-<name part>`: exactly what save() makes, so a name that is a path never matches. */
const STORED_NAME = /^\d+-[0-9a-f]{8}-[\w.-]+$/;

export function isStoredName(name: string): boolean {
  return name.length <= 255 && STORED_NAME.test(name);
}

/** A new stored name for a file called `originalName`: unique by its time and random part. */
export function newStoredName(originalName: string): string {
  return `${Date.now()}-${randomBytes(4).toString('hex')}-${storedNamePart(originalName)}`;
}

export function noMedia(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_MEDIA_FOUND);
}

/** The name itself, or NotFoundError when it is not one save() makes (a path, a forged name). */
export function checkedStoredName(name: string): string {
  if (!isStoredName(name)) throw noMedia();
  return name;
}

/** A path for a file named `name` in a new private temporary folder, which release() removes. */
export async function temporaryFile(name: string): Promise<LocalCopy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'atende-media-'));
  return { path: path.join(dir, name), release: () => rm(dir, { recursive: true, force: true }) };
}

export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  async save(companyId: number, originalName: string, source: MediaSource): Promise<SavedMedia> {
    const name = newStoredName(originalName);
    const file = this.fileOf(companyId, name);
    await mkdir(path.dirname(file), { recursive: true });
    try {
      // Exclusive: a stored file is never overwritten, whatever happens to the names.
      // A stream first: a file's read stream has a `path` too.
      if (source instanceof Readable) {
        await pipeline(source, createWriteStream(file, { flags: 'wx', mode: 0o640 }));
      } else {
        await copyFile(source.path, file, constants.COPYFILE_EXCL);
        await chmod(file, 0o640);
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') await rm(file, { force: true });
      throw err;
    }
    return { name, size: (await stat(file)).size };
  }

  async open(companyId: number, storedName: string): Promise<MediaFile> {
    const { file, size } = await this.existing(companyId, storedName);
    return { stream: createReadStream(file), size };
  }

  async remove(companyId: number, storedName: string): Promise<void> {
    await rm(this.fileOf(companyId, storedName), { force: true });
  }

  /** The stored file itself: nothing to copy, nothing to release. */
  async localCopy(companyId: number, storedName: string): Promise<LocalCopy> {
    const { file } = await this.existing(companyId, storedName);
    return { path: file, release: async () => undefined };
  }

  private async existing(companyId: number, storedName: string): Promise<{ file: string; size: number }> {
    const file = this.fileOf(companyId, storedName);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) throw noMedia();
    return { file, size: found.size };
  }

  private fileOf(companyId: number, storedName: string): string {
    return path.join(this.root, String(Math.trunc(companyId)), checkedStoredName(storedName));
  }
}
