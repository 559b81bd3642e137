import { randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, rm, stat } from 'node:fs/promises';
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

/**
 * Where media lives: `<mediaDir>/<companyId>/<file>`. An interface so an S3-compatible store can
 * replace the disk when several nodes serve one site (DESIGN.md §3). Bytes go through streams:
 * nothing here holds a whole file in memory.
 */
export interface MediaStorage {
  /** Saves under a new unique name derived from `originalName`. */
  save(companyId: number, originalName: string, source: MediaSource): Promise<SavedMedia>;
  /** A stored file to read; NotFoundError (ERR_NO_MEDIA_FOUND) when there is none by that name. */
  open(companyId: number, storedName: string): Promise<MediaFile>;
  remove(companyId: number, storedName: string): Promise<void>;
  /** Absolute path of a stored file (drivers that send from disk need it). */
  pathOf(companyId: number, storedName: string): string;
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

function noMedia(): NotFoundError {
  return new NotFoundError(ErrorCode.ERR_NO_MEDIA_FOUND);
}

export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  async save(companyId: number, originalName: string, source: MediaSource): Promise<SavedMedia> {
    const name = `${Date.now()}-${randomBytes(4).toString('hex')}-${storedNamePart(originalName)}`;
    const file = this.pathOf(companyId, name);
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
    const file = this.pathOf(companyId, storedName);
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) throw noMedia();
    return { stream: createReadStream(file), size: found.size };
  }

  async remove(companyId: number, storedName: string): Promise<void> {
    await rm(this.pathOf(companyId, storedName), { force: true });
  }

  pathOf(companyId: number, storedName: string): string {
    if (!isStoredName(storedName)) throw noMedia();
    return path.join(this.root, String(Math.trunc(companyId)), storedName);
  }
}
