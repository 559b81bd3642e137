import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase } from '../../core/db/database.js';
import { SqliteDriver } from '../../core/db/sqlite-driver.js';
import { CHECKPOINT_EVERY_MS, WalCheckpointer } from '../../core/db/wal-checkpointer.js';

// The writer of a SQLite file commits without checkpointing; a thread of its own checkpoints.
const dir = mkdtempSync(path.join(tmpdir(), 'atende-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MB = 1 << 20;

describe('SQLite WAL checkpoints', () => {
  it('run off the writer, often enough that the WAL starts again instead of growing, and lose nothing', async () => {
    const filename = path.join(dir, 'wal.sqlite');
    const db = createDatabase({ client: 'sqlite', filename });
    await db.schema.createTable('blobs', (t) => {
      t.increments('id');
      t.text('body').notNullable();
    });
    // The writer's own checkpoints are off (SQLite's default is every 1,000 pages, in the commit).
    expect(await db.raw('pragma wal_autocheckpoint')).toEqual([{ walAutocheckpoint: 0 }]);

    // 24 MB in 12 transactions, a checkpoint's interval apart: without checkpoints the WAL would hold them all.
    let walPeak = 0;
    for (let i = 0; i < 12; i++) {
      await db('blobs').insert(Array.from({ length: 32 }, (_, n) => ({ body: `${i}-${n}-`.padEnd(64 * 1024, 'x') })));
      walPeak = Math.max(walPeak, statSync(`${filename}-wal`).size);
      await new Promise((resolve) => setTimeout(resolve, CHECKPOINT_EVERY_MS * 2));
    }
    expect(walPeak).toBeGreaterThan(MB);
    expect(walPeak).toBeLessThan(8 * MB);

    await closeDatabase(db);
    const reopened = createDatabase({ client: 'sqlite', filename });
    try {
      expect(await reopened('blobs').count({ n: '*' })).toEqual([{ n: 12 * 32 }]);
      expect(await reopened.raw('pragma integrity_check')).toEqual([{ integrityCheck: 'ok' }]);
    } finally {
      await closeDatabase(reopened);
    }
  });

  it('a thread that fails gives the writer its own checkpoints back, and the process goes on', async () => {
    const writer = new SqliteDriver(path.join(dir, 'writer.sqlite'));
    const checkpointer = new WalCheckpointer(path.join(dir, 'no-such-file.sqlite'));
    try {
      checkpointer.start(writer);
      expect(writer.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await expect.poll(() => writer.pragma('wal_autocheckpoint', { simple: true }), { timeout: 5000 }).toBe(1000);
    } finally {
      await checkpointer.close();
      writer.close();
    }
  });

  it('an in-memory database has no checkpointer: SQLite keeps its default', async () => {
    const memory = createDatabase({ client: 'sqlite', filename: ':memory:' });
    try {
      expect(await memory.raw('pragma wal_autocheckpoint')).toEqual([{ walAutocheckpoint: 1000 }]);
    } finally {
      await closeDatabase(memory);
    }
  });
});
