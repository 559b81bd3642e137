import { chromium, type CDPSession } from 'playwright-core';
import { startBenchInstance } from './bench-instance.js';
import type { Figures } from './figures.js';

/** DESIGN §10: the SPA's first load, as transferred. */
const BUDGET_KB = 400;
const CHROMIUM = process.env.ATENDE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** The page's network is done once no request has been in flight this long. */
const QUIET_MS = 1000;
const QUIET_TIMEOUT_MS = 60_000;

/** CDP's resource types, grouped as the budget reads them. */
const KINDS: Record<string, string> = { Document: 'HTML', Script: 'JS', Stylesheet: 'CSS', Font: 'fonts', Fetch: 'API', XHR: 'API', Image: 'images' };

interface Load {
  bytes: number;
  requests: number;
  /** Bytes and requests per kind, with the Content-Encodings seen. */
  byKind: Map<string, { bytes: number; requests: number; encodings: Set<string> }>;
}

/**
 * What the network carries while `step` runs and until the page's network is quiet, from chromium's
 * own accounting (CDP Network): each finished request's encodedDataLength, its bytes on the wire
 * (headers and the body as sent, so compressed). The realtime WebSocket is no request there and
 * never keeps the page from being quiet; a request still open at the timeout is named.
 */
async function transferred(cdp: CDPSession, step: () => Promise<void>): Promise<Load> {
  const open = new Map<string, { kind: string; url: string; encoding: string }>();
  const load: Load = { bytes: 0, requests: 0, byKind: new Map() };
  let lastChange = Date.now();
  const onSent = (e: { requestId: string; type?: string; request: { url: string } }) => {
    open.set(e.requestId, { kind: KINDS[e.type ?? ''] ?? 'other', url: e.request.url, encoding: 'none' });
    lastChange = Date.now();
  };
  const onResponse = (e: { requestId: string; response: { headers: Record<string, string> } }) => {
    const request = open.get(e.requestId);
    const header = Object.entries(e.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
    if (request && header) request.encoding = header[1];
  };
  const onFinished = (e: { requestId: string; encodedDataLength: number }) => {
    const request = open.get(e.requestId);
    if (!request) return;
    open.delete(e.requestId);
    lastChange = Date.now();
    const kind = load.byKind.get(request.kind) ?? { bytes: 0, requests: 0, encodings: new Set<string>() };
    kind.bytes += e.encodedDataLength;
    kind.requests += 1;
    kind.encodings.add(request.encoding);
    load.byKind.set(request.kind, kind);
    load.bytes += e.encodedDataLength;
    load.requests += 1;
  };
  const onFailed = (e: { requestId: string }) => {
    open.delete(e.requestId);
    lastChange = Date.now();
  };
  cdp.on('Network.requestWillBeSent', onSent);
  cdp.on('Network.responseReceived', onResponse);
  cdp.on('Network.loadingFinished', onFinished);
  cdp.on('Network.loadingFailed', onFailed);
  try {
    await step();
    const started = Date.now();
    while (open.size > 0 || Date.now() - lastChange < QUIET_MS) {
      if (Date.now() - started > QUIET_TIMEOUT_MS) {
        throw new Error(`the page's network never went quiet; still open: ${[...open.values()].map((r) => r.url).join(', ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return load;
  } finally {
    cdp.off('Network.requestWillBeSent', onSent);
    cdp.off('Network.responseReceived', onResponse);
    cdp.off('Network.loadingFinished', onFinished);
    cdp.off('Network.loadingFailed', onFailed);
  }
}

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

/** `JS 310.2 KB (41, br) · API 4.1 KB (6, none)`: each kind's share, with the Content-Encodings it came in. */
function breakdown(load: Load): string {
  return [...load.byKind]
    .sort(([, a], [, b]) => b.bytes - a.bytes)
    .map(([kind, { bytes, requests, encodings }]) => `${kind} ${kb(bytes)} KB (${requests}, ${[...encodings].join('/')})`)
    .join(' · ');
}

/**
 * DESIGN §10 / issue 19: what a browser downloads on a first visit (empty cache), measured in chromium
 * against the built server: the login page, then signing in to the first screen (the dashboard with
 * its data), each until the page's network is quiet.
 */
export async function spaSize(): Promise<Figures> {
  const instance = await startBenchInstance('spa');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const login = await transferred(cdp, async () => {
      await page.goto(`${instance.url}/login`);
      await page.getByRole('button', { name: 'Entrar' }).waitFor();
    });
    const signedIn = await transferred(cdp, async () => {
      await page.getByLabel('E-mail').fill(instance.tenant.email);
      await page.getByLabel('Senha').fill(instance.tenant.password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByTestId('greeting').waitFor();
    });
    const all = kb(login.bytes + signedIn.bytes);
    return {
      'login page (first load), KB transferred': `${kb(login.bytes)} KB in ${login.requests} requests   budget < ${BUDGET_KB} KB: ${kb(login.bytes) < BUDGET_KB ? 'met' : 'MISSED'} · whaticket not measured (its build ships uncompressed)`,
      '  by type': breakdown(login),
      'then signing in to the first screen': `${kb(signedIn.bytes)} KB in ${signedIn.requests} requests (the dashboard's own chunks and data)`,
      '  by type ': breakdown(signedIn),
      'first visit in all, KB transferred': `${all} KB (the budget stops before the route's own chunks)`,
    };
  } finally {
    await browser.close();
    await instance.stop();
  }
}
