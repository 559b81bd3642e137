import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, createMember, createQueue, createTenant, customerWrites, eventually, type InboxTenant } from '../helpers/inbox.js';
import { startTestServer, SUPER_EMAIL, SUPER_PASSWORD, type TestServer } from '../helpers/server.js';
import { startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.js';

/**
 * Bad input gets a 4xx, never a 500, and a refused request writes nothing. Every route the app
 * lists (so a route added later is walked too) gets malformed and extreme ids, bodies, multipart
 * uploads and query strings, unauthenticated, as a company admin and as the super user, from a
 * fixed seed. After each refused request every table holds as many rows as before, except:
 */
const TABLES_CHANGED_BY_BACKGROUND_WORK = ['jobs', 'agenda_jobs'];

/** The ids the database cannot hold or that name nothing, as they appear in a path. */
const PATH_IDS = ['0', '-1', '2147483648', '9007199254740993', 'abc', '%00', '1e3'];

const LONG = 'x'.repeat(10_000);
/** Values that go where a body field goes. */
const BODY_VALUES: unknown[] = [
  0,
  -1,
  2_147_483_648,
  2 ** 53,
  1.5,
  'abc',
  '1e3',
  '2147483648',
  'Cli\u0000ente',
  '\u0000',
  LONG,
  'a'.repeat(256),
  '',
  null,
  true,
  [],
  [2_147_483_648],
  [{ id: 2_147_483_648 }],
  { nested: [{ deeper: ['\u0000', LONG, { id: -1 }] }] },
  '2026-02-30',
  'not a date',
];
/** Values that go where a query parameter goes (URL-encoded when sent). */
const QUERY_VALUES = [
  '0',
  '-1',
  '2147483648',
  '9007199254740993',
  'abc',
  '\u0000',
  'Cli\u0000ente',
  '1e3',
  '',
  LONG,
  '[2147483648]',
  '[-1,"a",null]',
  '[[{}]]',
  '{"a":1}',
  'x',
  '2026-02-30',
  '99999-01-01',
];
/** Whole bodies of the wrong shape. */
const WRONG_BODIES: unknown[] = [null, [], [{ name: 'x' }], 'text', 12, { '': { '\u0000': [null] } }];

/** Body fields the routes read, with a plausible value each; one of them at a time goes bad. */
function plausibleBody(f: Fixtures): Record<string, unknown> {
  return {
    name: 'Fuzz Name',
    email: 'fuzz.body@fuzz.test',
    password: 'secret-123',
    profile: 'user',
    number: '5511987650000',
    body: 'hello there',
    note: 'a fuzz note',
    title: 'Fuzz title',
    message: 'a message',
    shortcode: 'fz',
    option: '7',
    color: '#123456',
    greetingMessage: 'hi',
    description: 'text',
    link: 'https://example.com',
    video: 'dQw4w9WgXcQ',
    value: 'enabled',
    phone: '551100000000',
    planId: f.planId,
    companyId: f.companyId,
    contactId: f.contactId,
    queueId: f.queueId,
    ticketId: f.ticketId,
    userId: f.memberId,
    whatsappId: f.connectionId,
    parentId: f.optionId,
    transferQueueId: f.queueId,
    queueIds: [f.queueId],
    tags: [{ id: f.tagId }],
    quotedMsg: { id: f.messageId },
    quickMessageId: f.quickMessageId,
    status: 'open',
    sendAt: '2030-01-01T10:00',
    dueDate: '2030-01-01',
    recurrence: 'MENSAL',
    schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }],
    extraInfo: [{ name: 'k', value: 'v' }],
    users: 5,
    connections: 5,
    queues: 5,
    orderQueue: 1,
    kanban: 1,
    geral: true,
    from: '5511912345678',
  };
}

/** Query parameters the routes read, with a plausible value each. */
function plausibleQuery(f: Fixtures): Record<string, string> {
  return {
    searchParam: 'a',
    pageNumber: '1',
    status: 'open',
    showAll: 'true',
    queueIds: `[${f.queueId}]`,
    tags: `[${f.tagId}]`,
    users: `[${f.memberId}]`,
    date: '2026-11-24',
    updatedAt: '2026-11-24',
    dateStart: '2026-11-01',
    dateEnd: '2026-11-24',
    companyId: String(f.companyId),
    contactId: String(f.contactId),
    ticketId: String(f.ticketId),
    queueId: String(f.queueId),
    parentId: '-1',
    from: '2026-11-01',
    to: '2026-11-24',
    days: '7',
    date_from: '2026-11-01',
    date_to: '2026-11-24',
    initialDate: '2026-11-01',
    finalDate: '2026-11-24',
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so every run sends the same requests. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Fixtures {
  companyId: number;
  planId: number;
  memberId: number;
  queueId: number;
  optionId: number;
  connectionId: number;
  contactId: number;
  ticketId: number;
  ticketUuid: string;
  messageId: number;
  tagId: number;
  quickMessageId: number;
  helpId: number;
  noteId: number;
  scheduleId: number;
  fileListId: number;
}

interface FuzzRequest {
  method: string;
  path: string;
  json?: unknown;
  form?: { fields: Record<string, string>; fileName: string };
  /** Its path id names no record: nothing can be written. */
  namesNothing?: boolean;
}

/** The real record a route's parameter names (by the route's first segment), so its input is read. */
function realParam(f: Fixtures, routePath: string, param: string): string {
  const resource = routePath.split('/')[2] ?? '';
  if (param === 'uuid') return f.ticketUuid;
  if (param === 'key') return 'timezone';
  if (param === 'file') return 'fuzz.pdf';
  if (param === 'ticketId') return String(f.ticketId);
  const ids: Record<string, number> = {
    users: f.memberId,
    companies: f.companyId,
    plans: f.planId,
    helps: f.helpId,
    contacts: f.contactId,
    whatsapp: f.connectionId,
    whatsappsession: f.connectionId,
    simulator: f.connectionId,
    queue: f.queueId,
    'queue-options': f.optionId,
    tags: f.tagId,
    'quick-messages': f.quickMessageId,
    tickets: f.ticketId,
    'ticket-notes': f.noteId,
    messages: f.messageId,
    schedules: f.scheduleId,
    files: f.fileListId,
  };
  return String(ids[resource] ?? 1);
}

function fillPath(routePath: string, value: (param: string) => string): string {
  return routePath.replace(/:(\w+)/g, (_m, param: string) => encodeURIComponent(value(param)).replace('%2500', '%00'));
}

function queryString(query: Record<string, string>): string {
  return new URLSearchParams(query).toString();
}

/** Every field of `body` that `applies` to, replaced by `make(value)`; the others kept. */
function mapFields(body: Record<string, unknown>, applies: (value: unknown) => boolean, make: (value: unknown) => unknown) {
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, applies(value) ? make(value) : value]));
}

const isId = (value: unknown) => typeof value === 'number' || (Array.isArray(value) && typeof value[0] === 'number');
const isText = (value: unknown) => typeof value === 'string';

/** Plausible bodies with one kind of damage everywhere it fits: the kinds of bad input a client sends. */
function damagedBodies(base: Record<string, unknown>): Record<string, unknown>[] {
  const ids = (id: unknown) => mapFields(base, isId, (value) => (Array.isArray(value) ? [id] : id));
  return [
    ids(2_147_483_648),
    ids(2 ** 53),
    ids(-1),
    mapFields(base, isId, (value) => (Array.isArray(value) ? value.map(String) : String(value))),
    mapFields(base, isText, (value) => `${String(value).slice(0, 2)}\u0000${String(value).slice(2)}`),
    mapFields(base, isText, () => LONG),
    mapFields(base, isText, () => 'a'.repeat(256)),
    mapFields(base, () => true, () => null),
    mapFields(base, () => true, () => ({ nested: [{ deeper: ['\u0000', { id: -1 }] }] })),
    mapFields(base, (value) => typeof value === 'object' && value !== null, () => ['not', 'an', 'object']),
  ];
}

/** The same for query strings: every parameter damaged one way. */
function damagedQueries(base: Record<string, string>): Record<string, string>[] {
  const every = (make: (value: string) => string) => Object.fromEntries(Object.entries(base).map(([key, value]) => [key, make(value)]));
  return [
    every((value) => (/^\d+$/.test(value) ? '2147483648' : value.startsWith('[') ? '[2147483648]' : value)),
    every((value) => (/^\d+$/.test(value) ? '9007199254740993' : value.startsWith('[') ? '[-1,"a",null]' : value)),
    every((value) => `${value}\u0000`),
    every(() => 'x'),
    every(() => LONG),
  ];
}

/** How many single-field damages (chosen by the seed) each route gets on top of the kinds above. */
const SAMPLED_PER_ROUTE = 2;

/** The requests one route gets: bad path ids, then (on the real record) bad bodies, uploads or queries. */
function requestsFor(route: { method: string; path: string }, f: Fixtures, random: () => number): FuzzRequest[] {
  const { method } = route;
  const hasParams = route.path.includes(':');
  const requests: FuzzRequest[] = [];
  const withBody = method !== 'GET' && method !== 'DELETE';
  if (hasParams) {
    for (const id of PATH_IDS) requests.push({ method, path: fillPath(route.path, () => id), json: withBody ? {} : undefined, namesNothing: true });
  }
  // A DELETE on the real record would remove the fixtures the later routes read.
  if (method === 'DELETE' && hasParams) return requests;
  const path = fillPath(route.path, (param) => realParam(f, route.path, param));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  if (!withBody) {
    const base = plausibleQuery(f);
    const keys = Object.keys(base);
    const queries = [...damagedQueries(base), ...Array.from({ length: SAMPLED_PER_ROUTE }, () => ({ ...base, [pick(keys)]: pick(QUERY_VALUES) }))];
    return [...requests, ...queries.map((query) => ({ method, path: `${path}?${queryString(query)}` }))];
  }

  const base = plausibleBody(f);
  const fields = Object.keys(base);
  const bodies = [
    pick(WRONG_BODIES),
    ...damagedBodies(base),
    ...Array.from({ length: SAMPLED_PER_ROUTE }, () => ({ ...base, [pick(fields)]: pick(BODY_VALUES) })),
  ];
  const formFields = (value: string) => ({ body: value, ptt: value, quotedMsgId: value, ticketId: value });
  return [
    ...requests,
    ...bodies.map((json) => ({ method, path, json })),
    { method, path, form: { fields: formFields('hello'), fileName: `${'a'.repeat(296)}.pdf` } },
    { method, path, form: { fields: formFields('Cli\u0000ente'), fileName: pick([`nul\u0000name.pdf`, `${'b'.repeat(252)}.csv`]) } },
  ];
}

let server: TestServer;
let smtp: FakeSmtp | undefined;
let tenant: InboxTenant;
let superToken: string;
let fixtures: Fixtures;

async function created(method: string, path: string, token: string, body: unknown): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures read any shape
  const res = await server.call(method, path, { token, body });
  expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** One record of every kind a route can name, in the admin's company (and a spare company and plan). */
async function createFixtures(): Promise<Fixtures> {
  const admin = tenant.admin.token;
  const queueId = await createQueue(server, tenant, 'Fuzz queue');
  const member = await createMember(server, tenant, 'fuzzagent', { queueIds: [queueId] });
  const connectionId = await createConnection(server, tenant, 'Fuzz phone');
  await customerWrites(server, tenant, connectionId, { from: '5511912340000', body: 'primeira mensagem' });
  // The inbound message is processed after the simulator answers.
  const ticket = await eventually(async () => (await created('GET', '/api/tickets?showAll=true', admin, undefined)).tickets[0], 10_000, 'the ticket');
  const message = await eventually(async () => (await created('GET', `/api/messages/${ticket.id}`, admin, undefined)).messages[0], 10_000, 'the message');
  const plan = await created('POST', '/api/plans', superToken, { name: 'Fuzz spare plan', users: 5, connections: 5, queues: 5, value: 10 });
  const company = await created('POST', '/api/companies', superToken, { name: 'Fuzz Spare', email: 'spare@fuzz.test', planId: plan.id });
  return {
    companyId: company.id,
    planId: plan.id,
    memberId: member.id,
    queueId,
    optionId: (await created('POST', '/api/queue-options', admin, { queueId, title: 'Menu', option: '1' })).id,
    connectionId,
    contactId: ticket.contactId,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    messageId: message.id,
    tagId: (await created('POST', '/api/tags', admin, { name: 'Fuzz tag' })).id,
    quickMessageId: (await created('POST', '/api/quick-messages', admin, { shortcode: 'fuzz', message: 'hello' })).id,
    helpId: (await created('POST', '/api/helps', superToken, { title: 'Fuzz help', video: 'dQw4w9WgXcQ' })).id,
    noteId: (await created('POST', '/api/ticket-notes', admin, { note: 'a note', ticketId: ticket.id, contactId: ticket.contactId })).id,
    scheduleId: (await created('POST', '/api/schedules', admin, { body: 'scheduled text', contactId: ticket.contactId, sendAt: '2030-01-01T10:00' })).id,
    fileListId: (await created('POST', '/api/files', admin, { name: 'Fuzz list', message: 'hello', options: [{ name: 'Fuzz file' }] })).id,
  };
}

let countQuery: string | undefined;
/** Rows per table, in one query. */
async function rowCounts(): Promise<Record<string, number>> {
  const db = server.atende.container.db;
  if (!countQuery) {
    const tables: { name: string }[] =
      db.client.config.client === 'pg'
        ? (await db.raw('select tablename as name from pg_tables where schemaname = current_schema()')).rows
        : await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'");
    countQuery = tables
      .map((t) => t.name)
      .filter((name) => !TABLES_CHANGED_BY_BACKGROUND_WORK.includes(name))
      .map((name) => `select '${name}' as name, count(*) as rows from "${name}"`)
      .join(' union all ');
  }
  const result = await db.raw(countQuery);
  const rows: { name: string; rows: number | string }[] = result.rows ?? result;
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.rows)]));
}

/**
 * Rows per table once an accepted request's background work (an inbound message being stored,
 * say) has finished: the counts stayed the same for a while.
 */
async function settledRowCounts(): Promise<Record<string, number>> {
  let last = await rowCounts();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    const now = await rowCounts();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
}

async function send(request: FuzzRequest, token: string | undefined): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let body: string | FormData | undefined;
  if (request.form) {
    const form = new FormData();
    for (const [key, value] of Object.entries(request.form.fields)) form.set(key, value);
    form.set('file', new Blob(['%PDF-1.4 fuzz']), request.form.fileName);
    form.set('medias', new Blob(['%PDF-1.4 fuzz']), request.form.fileName);
    body = form;
  } else if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  const res = await fetch(server.url + request.path, { method: request.method, headers, body });
  return { status: res.status, body: (await res.text()).slice(0, 300) };
}

function describeRequest(request: FuzzRequest): string {
  const shown = request.form ? { form: request.form } : request.json;
  const text = `${request.method} ${request.path} ${shown === undefined ? '' : JSON.stringify(shown)}`;
  return text.replace(/x{50,}/g, (run) => `x×${run.length}`).replace(/[ab]{50,}/g, (run) => `${run[0]}×${run.length}`).slice(0, 400);
}

/**
 * Walks every route as one caller; answers the 500s and the refused requests that wrote rows.
 * Rows are counted after each request that may write; requests that cannot (reads, ids that name
 * nothing) are counted as one batch per route.
 */
async function walk(token: string | undefined, seed: number): Promise<string[]> {
  const random = seeded(seed);
  // Logging out ends the caller's session: walked last.
  const routes = [...server.atende.server.routes].sort((a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'));
  const problems: string[] = [];
  let before = await rowCounts();
  /** Counts rows now; a change since the last count is a problem when `refused` says every request since was. */
  const countRows = async (refused: boolean, what: () => string) => {
    const after = refused ? await rowCounts() : await settledRowCounts();
    const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
    if (refused && changed.length > 0) problems.push(`refused yet wrote ${changed.join(', ')} ← ${what()}`);
    before = after;
  };
  for (const route of routes) {
    const requests = requestsFor(route, fixtures, random).slice(0, token ? undefined : 3);
    let batchRefused = true;
    for (const request of requests) {
      const answer = await send(request, token);
      if (answer.status >= 500) problems.push(`${answer.status} ← ${describeRequest(request)} → ${answer.body}`);
      if (route.method === 'GET' || request.namesNothing) {
        batchRefused &&= answer.status >= 400;
      } else {
        await countRows(answer.status >= 400, () => describeRequest(request));
      }
    }
    await countRows(batchRefused, () => `${route.method} ${route.path} (reads and unknown ids)`);
  }
  return problems;
}

beforeAll(async () => {
  // With an SMTP server, so password recovery is walked as it works (without one it answers 503 by design).
  smtp = await startFakeSmtp();
  server = await startTestServer({ simulator: true, smtpUrl: smtp.url });
  superToken = (await server.login(SUPER_EMAIL, SUPER_PASSWORD)).token;
  tenant = await createTenant(server, 'Fuzz Co');
  fixtures = await createFixtures();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('the rules the walk keeps', () => {
  it('an id beyond the database range in a path answers 404 with the record code', async () => {
    const res = await server.call('GET', '/api/tickets/2147483648', { token: tenant.admin.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('an id beyond the database range in a body or a JSON query array answers 400 naming the field', async () => {
    const body = await server.call('POST', '/api/tickets', { token: tenant.admin.token, body: { contactId: 2_147_483_648, status: 'open' } });
    expect(body.status).toBe(400);
    expect(body.body).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringMatching(/^contactId: /) });
    const query = await server.call('GET', '/api/tickets?queueIds=[2147483648]', { token: tenant.admin.token });
    expect(query.status).toBe(400);
    expect(query.body).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringMatching(/^queueIds\.0: /) });
  });

  it('NUL characters are removed from body and query text before anything reads it', async () => {
    const res = await server.call('PUT', `/api/contacts/${fixtures.contactId}`, { token: tenant.admin.token, body: { name: 'Cli\u0000ente' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Cliente');
    const search = await server.call('GET', '/api/contacts?searchParam=Cli%00ente', { token: tenant.admin.token });
    expect(search.status).toBe(200);
    expect(search.body.contacts.map((c: { id: number }) => c.id)).toEqual([fixtures.contactId]);
  });

  it('an upload name over 255 characters is shortened to 255, keeping its extension', async () => {
    const form = new FormData();
    form.set('file', new Blob(['%PDF-1.4 long']), `${'n'.repeat(296)}.pdf`);
    const res = await fetch(`${server.url}/api/quick-messages/${fixtures.quickMessageId}/media-upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.admin.token}` },
      body: form,
    });
    const body = (await res.json()) as { mediaName: string };
    expect(res.status).toBe(200);
    expect(body.mediaName).toBe(`${'n'.repeat(251)}.pdf`);
  });

  it('the schedules calendar answers 400 for a malformed day', async () => {
    const res = await server.call('GET', '/api/schedules/calendar?from=x&to=2026-11-24', { token: tenant.admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', message: expect.stringMatching(/^from: /) });
  });
});

describe('bad input on every route', () => {
  it('an unauthenticated caller gets 4xx and nothing is written', async () => {
    expect(await walk(undefined, 1)).toEqual([]);
  }, 300_000);

  it('a company admin gets 4xx for bad ids, bodies, uploads and queries, and a refused request writes nothing', async () => {
    expect(await walk(tenant.admin.token, 2)).toEqual([]);
  }, 300_000);

  it('the super user gets 4xx for bad ids, bodies, uploads and queries, and a refused request writes nothing', async () => {
    expect(await walk(superToken, 3)).toEqual([]);
  }, 300_000);
});
