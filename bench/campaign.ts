import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { SqliteDriver } from '../core/db/sqlite-driver.js';
import { freePort, SERVER_NODE_FLAGS } from './bench-instance.js';

/**
 * Issue 15's campaign benchmark: the built server (SQLite, simulated WhatsApp) sends a
 * 10,000-contact campaign with every interval at 0. Figures: messages per second, the server's RSS
 * at each tenth of the run and the live heap after V8's full collections (--trace-gc): both must stay
 * flat (no per-contact job or timer held), the RSS after its first tenths, where the heap takes the
 * room it keeps. On a second run, the time from the cancel's request to its answer and to the last
 * message that left.
 */
/** ATENDE_BENCH_CAMPAIGN_CONTACTS changes it (a longer run shows whether the RSS levels off). */
const CONTACTS = Number(process.env.ATENDE_BENCH_CAMPAIGN_CONTACTS ?? 10_000);
const PASSWORD = 'bench-secret';
const EMAIL = 'admin@bench.test';

async function call(url: string, method: string, route: string, token?: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 102.4) / 10;
}

function sentOf(file: string): { to: string; sentAt: string }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    // The line being written as it is read is left for the next read.
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { to: string; sentAt: string }];
      } catch {
        return [];
      }
    });
}

export async function campaignBench(): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atende-bench-campaign-'));
  const env = { ATENDE_ADMIN_PASSWORD: PASSWORD, ATENDE_LOG_LEVEL: 'warn', ATENDE_SIMULATOR: '1', ATENDE_PLUGIN_CAMPAIGNS_TICK_EVERY_MS: '500' };
  await execa('node', ['bin/atende.js', 'init', '--dir', dir, '--yes', '--admin-password', PASSWORD], { env });
  await execa('node', ['bin/atende.js', 'add-tenant', '--dir', dir, '--name', 'Bench', '--email', EMAIL, '--password', PASSWORD], { env });
  const port = await freePort();
  // --trace-gc: the live heap after each full collection tells a leak (it climbs) from a heap that only grew its room.
  const server: ResultPromise = execa('node', ['--trace-gc', ...SERVER_NODE_FLAGS, 'bin/atende.js', 'serve', '--dir', dir, '--port', String(port)], { env, reject: false, buffer: false });
  // Per isolate (the server's worker threads print theirs too); the server's own is the largest.
  const liveHeaps = new Map<string, number[]>();
  let pending = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const full = /^\[\d+:(0x[0-9a-f]+)\].*Mark-Compact[^>]*->\s*([\d.]+)\s*\(/.exec(line);
      if (full) liveHeaps.set(full[1]!, [...(liveHeaps.get(full[1]!) ?? []), Number(full[2])]);
    }
  });
  /** The server's main heap: its full collections so far. */
  const mainHeap = (): number[] => [...liveHeaps.values()].reduce<number[]>((a, b) => (Math.max(0, ...b) > Math.max(0, ...a) ? b : a), []);
  server.stderr!.resume();
  const url = `http://127.0.0.1:${port}`;
  const db = new SqliteDriver(path.join(dir, 'data/atende.sqlite'));
  db.pragma('busy_timeout = 10000');
  try {
    for (let i = 0; ; i += 1) {
      const up = await fetch(`${url}/`).catch(() => undefined);
      if (up) break;
      if (i > 300) throw new Error('the server did not start');
      await sleep(100);
    }
    const login = await call(url, 'POST', '/api/auth/login', undefined, { email: EMAIL, password: PASSWORD });
    const token = login.body.token as string;
    const companyId = login.body.user.companyId as number;
    await call(url, 'POST', '/api/campaign-settings', token, { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, dailyCap: 100_000 } });

    /** A connected simulated connection, a 10,000-number list and a campaign on it scheduled now. */
    const prepare = async (name: string) => {
      const connection = (await call(url, 'POST', '/api/whatsapp', token, { name, provider: 'simulator' })).body.id as number;
      for (let i = 0; (await call(url, 'POST', `/api/simulator/${connection}/scan`, token)).status !== 200; i += 1) {
        if (i > 1200) throw new Error('no QR code to scan');
        await sleep(50);
      }
      const now = new Date().toISOString();
      const listId = Number(db.prepare(`INSERT INTO contact_lists (company_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`).run(companyId, name, now, now).lastInsertRowid);
      const item = db.prepare(
        `INSERT INTO contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid, whatsapp_checked_at, created_at, updated_at) VALUES (?, ?, ?, ?, '', 1, ?, ?, ?)`,
      );
      db.transaction(() => {
        for (let i = 0; i < CONTACTS; i += 1) item.run(companyId, listId, `Cliente ${i}`, `55119${String(50_000_000 + i).padStart(8, '0')}`, now, now, now);
      })();
      const campaignId = Number(
        db
          .prepare(
            `INSERT INTO campaigns (company_id, name, status, confirmation, scheduled_at, whatsapp_id, contact_list_id, message1, created_at, updated_at) VALUES (?, ?, 'PROGRAMADA', 0, ?, ?, ?, 'Olá {nome}, temos novidades', ?, ?)`,
          )
          .run(companyId, name, now, connection, listId, now, now).lastInsertRowid,
      );
      return { connection, campaignId, outbox: path.join(dir, `data/simulator/outbox-${connection}.jsonl`) };
    };
    const statusOf = (id: number) => (db.prepare(`SELECT status FROM campaigns WHERE id = ?`).get(id) as { status: string }).status;

    // Run 1: the whole campaign.
    const run = await prepare('Bench completa');
    const rss: number[] = [];
    const before = rssMb(server.pid!);
    /** The RSS when each tenth of the contacts had been sent (index 0: 10%). */
    const rssAtTenth: number[] = [];
    /** The live heap (MB) after the last full collection at each tenth. */
    const heapAtTenth: number[] = []; // NaN: no full collection yet
    const fullGcsBefore = mainHeap().length;
    const liveHeapNow = () => (mainHeap().length > fullGcsBefore ? mainHeap().at(-1)! : Number.NaN);
    const sampler = setInterval(() => rss.push(rssMb(server.pid!)), 250);
    for (let i = 0; statusOf(run.campaignId) !== 'FINALIZADA'; i += 1) {
      if (i > 4800) throw new Error('the campaign did not finish in 20 minutes');
      const sent = sentOf(run.outbox).length;
      while (rssAtTenth.length < 10 && sent >= (CONTACTS * (rssAtTenth.length + 1)) / 10) {
        rssAtTenth.push(rssMb(server.pid!));
        heapAtTenth.push(liveHeapNow());
      }
      await sleep(250);
    }
    // The last tenths went between two looks: sampled at the end.
    while (rssAtTenth.length < 10) {
      rssAtTenth.push(rssMb(server.pid!));
      heapAtTenth.push(liveHeapNow());
    }
    clearInterval(sampler);
    await sleep(5000);
    const after = rssMb(server.pid!);
    const sent = sentOf(run.outbox);
    const seconds = (Date.parse(sent.at(-1)!.sentAt) - Date.parse(sent[0]!.sentAt)) / 1000;

    // Run 2: cancelled once 2,000 messages have left.
    const second = await prepare('Bench cancelada');
    while (sentOf(second.outbox).length < 2000) await sleep(20);
    const asked = Date.now();
    const cancelled = await call(url, 'POST', `/api/campaigns/${second.campaignId}/cancel`, token);
    const answered = Date.now();
    if (cancelled.status !== 200) throw new Error(`cancel answered ${cancelled.status}`);
    await sleep(2000);
    const afterCancel = sentOf(second.outbox);
    const lastLeft = Date.parse(afterCancel.at(-1)!.sentAt);

    return {
      'contacts': String(CONTACTS),
      'messages sent (distinct numbers)': `${sent.length} (${new Set(sent.map((m) => m.to)).size})`,
      'messages/s (first to last send)': (sent.length / seconds).toFixed(0),
      'RSS MB before the run': String(before),
      'RSS MB at 10%, 20% … 100% sent': rssAtTenth.join(' / '),
      'live heap MB after the last full GC at 10% … 100%': heapAtTenth.map((v) => (Number.isNaN(v) ? '—' : v)).join(' / '),
      'live heap MB after full GCs during the run (min / max, count)': (() => {
        const during = mainHeap().slice(fullGcsBefore);
        return during.length ? `${Math.min(...during)} / ${Math.max(...during)} (${during.length})` : '—';
      })(),
      'RSS MB min / max during the run': `${Math.min(...rss)} / ${Math.max(...rss)}`,
      'RSS MB 5 s after the run': String(after),
      'cancel: request → answer (ms)': String(answered - asked),
      'cancel: request → last message left (ms)': String(lastLeft - asked),
      'cancel: messages after the answer': String(afterCancel.filter((m) => Date.parse(m.sentAt) > answered).length),
    };
  } finally {
    db.close();
    server.kill('SIGTERM');
    await server;
    rmSync(dir, { recursive: true, force: true });
  }
}
