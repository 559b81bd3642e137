import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where media lives: `<mediaDir>/<companyId>/<file>`. An interface so an S3-compatible store can
 * replace the disk when several nodes serve one site (DESIGN.md §3).
 */
export interface MediaStorage {
  /** Saves bytes under a safe, unique name derived from `originalName`; answers the stored name. */
  save(companyId: number, originalName: string, data: Buffer): Promise<string>;
  read(companyId: number, storedName: string): Promise<Buffer>;
  remove(companyId: number, storedName: string): Promise<void>;
  /** Absolute path of a stored file (drivers that send from disk need it). */
  pathOf(companyId: number, storedName: string): string;
}

/** Letters, digits, dot, dash and underscore only; never a path; keeps the extension. */
export function safeFileName(name: string): string {
  const base = path.basename(name.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));
  const cleaned = base.replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '').slice(-120);
  return cleaned || 'file';
}

export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  async save(companyId: number, originalName: string, data: Buffer): Promise<string> {
    const stored = `${Date.now()}-${randomBytes(4).toString('hex')}-${safeFileName(originalName)}`;
    await mkdir(this.companyDir(companyId), { recursive: true });
    await writeFile(this.pathOf(companyId, stored), data, { mode: 0o640 });
    return stored;
  }

  read(companyId: number, storedName: string): Promise<Buffer> {
    return readFile(this.pathOf(companyId, storedName));
  }

  async remove(companyId: number, storedName: string): Promise<void> {
    await rm(this.pathOf(companyId, storedName), { force: true });
  }

  pathOf(companyId: number, storedName: string): string {
    const file = path.join(this.companyDir(companyId), safeFileName(storedName));
    return file;
  }

  private companyDir(companyId: number): string {
    return path.join(this.root, String(Math.trunc(companyId)));
  }
}
