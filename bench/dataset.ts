import { hash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { loadConfig } from '../core/config/load-config.js';
import { registerSearchFold } from '../core/db/search-fold.js';
import { SqliteDriver } from '../core/db/sqlite-driver.js';
import { createLogger } from '../core/logger.js';
import { startAtende } from '../core/boot.js';
import { DEFAULT_SCHEDULES } from '../core/modules/companies/companies.schema.js';
import { Queue } from '../core/modules/queues/queue.model.js';
import { Whatsapp } from '../core/modules/whatsapp/whatsapp.model.js';

/**
 * The benchmark dataset of /work/shared/bench-dataset.md, in Atende's schema: one company, 20,000
 * contacts, 100,000 tickets, 1,000,000 messages, every value derived from ids through md5 so the
 * same rows exist on every machine. Company, people, queues and connections are made through the
 * services (real password hashes, settings, plan); the bulk rows go straight into the tables.
 * Built once per schema and kept under .tmp/bench (SQLite file, or a PostgreSQL template
 * database); each run works on a copy.
 *
 * Mapping to Atende: the 5 connections are kept (each contact has one ticket per connection, as
 * there); remoteJid is the number (Atende stores chat ids as digits); text messages have no
 * mediaType; outbound messages keep the ticket's contact. Additions: 4 tags on 20% of the tickets
 * (for the tag filter) and a sixth, paired simulator connection with one queue for the inbound
 * benchmark.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE_DIR = path.join(ROOT, '.tmp', 'bench');
/** Bump when the rows change in a way the source hash below would not see. */
const DATASET_VERSION = 1;

/**
 * ATENDE_BENCH_SCALE multiplies the messages only (0.1, 1 or 10; 1 by default): tickets, contacts
 * and the share of messages holding the search word stay, so a search's cost can be seen against
 * the number of messages. Each scale is a dataset of its own.
 */
export const SCALE = benchScale(process.env.ATENDE_BENCH_SCALE);
export const COUNTS = { contacts: 20_000, tickets: 100_000, messages: Math.round(1_000_000 * SCALE), connections: 5 } as const;
/** The lowest-id open ticket, given exactly the first 200 messages (request d). */
export const T200 = 21;
export const PASSWORD = '123456';
export const ADMIN_EMAIL = 'admin@admin.com';
export const SEARCH_WORD = 'boleto';
const SUPER = { email: 'super@bench.local', password: 'bench-super-secret' };
const TAGS = ['Urgente', 'VIP', 'Retorno', 'Financeiro'];
const SIX_MONTHS_S = 15_552_000;
const THIRTY_DAYS_S = 2_592_000;

const WORDS = (
  'olá oi bom dia boa tarde noite obrigado obrigada por favor pedido entrega produto preço valor pagamento pix cartão crédito débito ' +
  'parcela parcelas nota fiscal cupom desconto frete prazo endereço rua número bairro cidade estado cep telefone email cadastro conta ' +
  'senha acesso sistema site aplicativo problema erro ajuda suporte atendimento atendente setor financeiro comercial vendas orçamento ' +
  'proposta contrato plano mensalidade fatura vencimento atraso juros multa cancelamento troca devolução garantia defeito reclamação ' +
  'sugestão dúvida informação horário funcionamento loja unidade filial estoque disponível indisponível tamanho cor modelo marca ' +
  'quantidade caixa pacote envio enviado recebido chegou rastreio código transportadora correios motoboy retirada agendamento agenda ' +
  'consulta exame resultado médico clínica paciente receita retorno confirmação confirmar confirmado cancelar cancelado reagendar amanhã ' +
  'hoje ontem semana mês ano segunda terça quarta quinta sexta sábado domingo manhã agora depois antes logo ainda já sim não talvez certo ' +
  'claro perfeito ótimo beleza tudo bem aguardo aguardando gostaria saber preciso quero posso pode consegue verificar conferir enviar ' +
  'mandar receber pagar paguei comprei comprovante transferência depósito banco agência vista centro norte sul leste oeste casa ' +
  'apartamento bloco empresa cliente senhor senhora você vocês nós eles meu minha seu sua nosso nossa este esta isso aquilo aqui ali lá ' +
  'onde quando como porque qual quanto quantos muito pouco mais menos grande pequeno novo usado rápido urgente importante simples ' +
  'completo total parcial aberto fechado pendente resolvido solicitação protocolo chamado ticket mensagem ligação whatsapp foto imagem ' +
  'arquivo documento anexo link valeu combinado entendi desculpa desculpe resolver resolvemos instalação técnico visita internet sinal ' +
  'velocidade lenta caiu voltou funcionando reiniciar roteador modem'
).split(' ');
const FIRST = (
  'Ana Maria João José Pedro Paulo Lucas Mateus Gabriel Rafael Carlos Marcos Luiz Fernando Ricardo Eduardo Bruno Felipe Gustavo ' +
  'Thiago Rodrigo André Daniel Diego Leonardo Vinícius Juliana Fernanda Patrícia Aline Camila Amanda Bruna Letícia Larissa Beatriz ' +
  'Carolina Mariana Gabriela Rafaela Jéssica Vanessa Sandra Cristina Adriana Simone Luciana Renata Tatiana Priscila Raquel Daniela ' +
  'Sabrina Débora Cláudia Márcia Rosana Sônia Helena Francisca Antônia Raimundo Sebastião Francisco'
).split(' ');
const LAST = (
  'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins Carvalho Almeida Lopes Soares ' +
  'Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes Marques Machado Mendes Freitas Cardoso Ramos Gonçalves ' +
  'Santana Teixeira Araújo Pinto Correia Cavalcanti Moura Monteiro Batista Campos Cunha Reis Castro Azevedo Medeiros Farias Pires ' +
  'Melo Barros Duarte Miranda Tavares Peixoto Queiroz Sales Xavier Brito Siqueira Macedo Fonseca Bezerra'
).split(' ');

function benchScale(raw: string | undefined): number {
  const scale = Number(raw ?? 1);
  if (!Number.isFinite(scale) || scale < 0.001 || scale > 100) throw new Error(`ATENDE_BENCH_SCALE must be a number such as 0.1, 1 or 10 (got ${raw})`);
  return scale;
}

/** h(s): the first 8 hex digits of md5(s) as an unsigned 32-bit integer. */
function h(s: string): number {
  return parseInt(hash('md5', s).slice(0, 8), 16);
}

function uuidOf(s: string): string {
  const x = hash('md5', s);
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-4${x.slice(13, 16)}-8${x.slice(17, 20)}-${x.slice(20, 32)}`;
}

/** "12 s (cpu 9 s)" since `from`: the build's phases, on a machine that may be busy. */
function elapsed(from: { wall: number; cpu: NodeJS.CpuUsage }): string {
  const cpu = process.cpuUsage(from.cpu);
  return `${Math.round((performance.now() - from.wall) / 1000)} s (cpu ${Math.round((cpu.user + cpu.system) / 1e6)} s)`;
}

function startClock(): { wall: number; cpu: NodeJS.CpuUsage } {
  return { wall: performance.now(), cpu: process.cpuUsage() };
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** What the bench needs to know about a built dataset. */
export interface DatasetMeta {
  version: number;
  /** The seeding instant (epoch seconds, whole minutes). */
  t0: number;
  companyId: number;
  queueIds: [number, number];
  adminId: number;
  agents: { id: number; email: string; queueId: number }[];
  connectionIds: number[];
  /** The paired simulator connection with only the first queue. */
  inboundConnectionId: number;
  tagIds: number[];
  /** How many messages the dataset holds (ATENDE_BENCH_SCALE × 1,000,000). */
  messages: number;
  buildSeconds: number;
}

export interface BenchDatabase {
  kind: 'sqlite' | 'pg';
  /** What `databaseUrl` takes: the run copy's file, or its postgres:// address. */
  databaseUrl: string;
  meta: DatasetMeta;
  /** Whether this call built the dataset (else it came from the cache). */
  built: boolean;
  /** Drops the run copy. */
  release(): Promise<void>;
}

type Row = (string | number | boolean | null)[];

interface Table {
  name: string;
  columns: string[];
  /** PostgreSQL types, for the unnest() bulk insert. */
  types: string[];
}

const CONTACTS: Table = {
  name: 'contacts',
  columns: ['id', 'company_id', 'uuid', 'name', 'number', 'email', 'profile_pic_url', 'is_group', 'created_at', 'updated_at'],
  types: ['int', 'int', 'uuid', 'text', 'text', 'text', 'text', 'bool', 'timestamptz', 'timestamptz'],
};
const TICKETS: Table = {
  name: 'tickets',
  columns: [
    'id', 'company_id', 'uuid', 'status', 'unread_messages', 'last_message', 'is_group', 'from_me', 'user_id', 'contact_id',
    'whatsapp_id', 'queue_id', 'chatbot', 'created_at', 'updated_at',
  ],
  types: ['int', 'int', 'uuid', 'text', 'int', 'text', 'bool', 'bool', 'int', 'int', 'int', 'int', 'bool', 'timestamptz', 'timestamptz'],
};
const TRACKING: Table = {
  name: 'ticket_tracking',
  columns: ['company_id', 'ticket_id', 'whatsapp_id', 'user_id', 'queue_id', 'queued_at', 'started_at', 'finished_at', 'rated', 'created_at', 'updated_at'],
  types: ['int', 'int', 'int', 'int', 'int', 'timestamptz', 'timestamptz', 'timestamptz', 'bool', 'timestamptz', 'timestamptz'],
};
const TICKET_TAGS: Table = { name: 'ticket_tags', columns: ['ticket_id', 'tag_id'], types: ['int', 'int'] };
const MESSAGES: Table = {
  name: 'messages',
  columns: [
    'id', 'company_id', 'wid', 'ticket_id', 'contact_id', 'queue_id', 'body', 'from_me', 'read', 'ack', 'remote_jid', 'data_json',
    'send_status', 'created_at', 'updated_at',
  ],
  types: ['int', 'int', 'text', 'int', 'int', 'int', 'text', 'bool', 'bool', 'int', 'text', 'text', 'text', 'timestamptz', 'timestamptz'],
};

/** Receives the bulk rows, chunk by chunk. */
interface BulkWriter {
  insert(table: Table, rows: Row[]): Promise<void>;
}

const CHUNK = 5000;

/** md5(j:a) and md5(j:b): the body's words and the raw message's keys. */
function messageBytes(j: number): [Buffer, Buffer] {
  return [hash('md5', `${j}:a`, 'buffer'), hash('md5', `${j}:b`, 'buffer')];
}

/** The message body of j: 32 words from md5(j:a) ‖ md5(j:b), "boleto " on 1%, cut to 19–200 characters. */
export function messageBody(j: number, [a, b] = messageBytes(j)): string {
  const words: string[] = new Array(33);
  let k = 0;
  if (j % 100 === 37) words[k++] = SEARCH_WORD;
  for (const byte of a) words[k++] = WORDS[byte]!;
  for (const byte of b) words[k++] = WORDS[byte]!;
  const text = words.join(' ').slice(0, 20 + (h(`${j}:l`) % 181)).replace(/ $/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A Baileys-like raw message (about 600 bytes), as Atende keeps for received messages. */
function rawMessage(j: number, [a, b]: [Buffer, Buffer], wid: string, number: string, fromMe: boolean, body: string, at: number, pushName: string): string {
  const a64 = a.toString('base64');
  const b64 = b.toString('base64');
  const context = {
    deviceListMetadata: {
      senderKeyHash: a64.slice(0, 20),
      senderTimestamp: String(at - 86_400),
      recipientKeyHash: b64.slice(0, 20),
      recipientTimestamp: String(at - 3600),
    },
    deviceListMetadataVersion: 2,
    messageSecret: a64.slice(0, 22) + b64,
  };
  const message = h(`${j}:y`) % 100 < 70 ? { conversation: body, messageContextInfo: context } : { extendedTextMessage: { text: body }, messageContextInfo: context };
  return JSON.stringify({
    key: { remoteJid: `${number}@s.whatsapp.net`, fromMe, id: wid },
    message,
    messageTimestamp: at,
    pushName: fromMe ? 'Empresa 1' : pushName,
    broadcast: false,
    status: fromMe ? 4 : 2,
  });
}

interface Ids {
  companyId: number;
  queueIds: [number, number];
  agentIds: number[];
  connectionIds: number[];
  tagIds: number[];
}

/** Generates every bulk row in id order and hands them to `writer`. */
async function writeRows(writer: BulkWriter, ids: Ids, t0: number): Promise<void> {
  const { companyId } = ids;
  const contactName: string[] = [];
  const contactNumber: string[] = [];
  let rows: Row[] = [];
  const flush = async (table: Table, force = false) => {
    if (rows.length >= CHUNK || (force && rows.length > 0)) {
      await writer.insert(table, rows);
      rows = [];
    }
  };

  const contactsAt = iso(t0 - SIX_MONTHS_S - THIRTY_DAYS_S);
  for (let c = 1; c <= COUNTS.contacts; c += 1) {
    const name = `${FIRST[h(`${c}:fn`) % 64]} ${LAST[h(`${c}:ln`) % 64]}`;
    const number = `55${11 + (h(`${c}:ddd`) % 89)}9${String((c * 7919) % 100_000_000).padStart(8, '0')}`;
    contactName[c] = name;
    contactNumber[c] = number;
    rows.push([c, companyId, uuidOf(`${c}:uuid`), name, number, '', 'http://localhost:3000/nopicture.png', false, contactsAt, contactsAt]);
    await flush(CONTACTS);
  }
  await flush(CONTACTS, true);

  // Tickets: their times first, since the messages' times and the tickets' last message depend on each other.
  const n = COUNTS.tickets;
  const status: ('pending' | 'open' | 'closed')[] = new Array(n + 1);
  const queue = new Int32Array(n + 1);
  const user = new Int32Array(n + 1);
  const updatedAt = new Float64Array(n + 1);
  const createdAt = new Float64Array(n + 1);
  for (let i = 1; i <= n; i += 1) {
    const r = h(`${i}:s`) % 100;
    status[i] = r < 5 ? 'pending' : r < 15 ? 'open' : 'closed';
    const q = h(`${i}:q`) % 2;
    queue[i] = ids.queueIds[q]!;
    user[i] = status[i] === 'pending' ? 0 : ids.agentIds[q * 5 + (h(`${i}:u`) % 5)]!;
    updatedAt[i] = t0 - (h(`${i}:t`) % SIX_MONTHS_S);
    createdAt[i] = updatedAt[i]! - (h(`${i}:c`) % THIRTY_DAYS_S);
  }
  const contactOf = (i: number) => ((i - 1) % COUNTS.contacts) + 1;

  // Which ticket each message belongs to, when and which way; the newest message of each ticket.
  const m = COUNTS.messages;
  const ticketOf = new Int32Array(m + 1);
  const messageAt = new Float64Array(m + 1);
  const fromMe = new Uint8Array(m + 1);
  const newest = new Int32Array(n + 1);
  for (let j = 1; j <= m; j += 1) {
    let t = T200;
    if (j > 200) {
      t = 1 + (h(`${j}:m`) % 99_999);
      if (t >= T200) t += 1;
    }
    ticketOf[j] = t;
    fromMe[j] = h(`${j}:f`) % 100 < 45 ? 1 : 0;
    messageAt[j] = j <= 200 ? updatedAt[T200]! - (200 - j) * 90 : createdAt[t]! + (h(`${j}:d`) % (updatedAt[t]! - createdAt[t]! + 1));
    const last = newest[t]!;
    if (last === 0 || messageAt[j]! >= messageAt[last]!) newest[t] = j;
  }

  for (let i = 1; i <= n; i += 1) {
    const last = newest[i]!;
    rows.push([
      i,
      companyId,
      uuidOf(`${i}:uuid`),
      status[i]!,
      status[i] === 'closed' ? 0 : h(`${i}:r`) % 6,
      last ? messageBody(last) : '',
      false,
      last ? fromMe[last] === 1 : false,
      user[i] || null,
      contactOf(i),
      ids.connectionIds[Math.floor((i - 1) / COUNTS.contacts)]!,
      queue[i]!,
      false,
      iso(createdAt[i]!),
      iso(updatedAt[i]!),
    ]);
    await flush(TICKETS);
  }
  await flush(TICKETS, true);

  for (let i = 1; i <= n; i += 1) {
    const pending = status[i] === 'pending';
    const closed = status[i] === 'closed';
    rows.push([
      companyId,
      i,
      ids.connectionIds[Math.floor((i - 1) / COUNTS.contacts)]!,
      user[i] || null,
      queue[i]!,
      iso(createdAt[i]!),
      pending ? null : iso(createdAt[i]! + 300),
      closed ? iso(updatedAt[i]!) : null,
      false,
      iso(createdAt[i]!),
      iso(updatedAt[i]!),
    ]);
    await flush(TRACKING);
  }
  await flush(TRACKING, true);

  for (let i = 1; i <= n; i += 1) {
    if (h(`${i}:tg`) % 100 < 20) rows.push([i, ids.tagIds[h(`${i}:g`) % ids.tagIds.length]!]);
    await flush(TICKET_TAGS);
  }
  await flush(TICKET_TAGS, true);

  for (let j = 1; j <= m; j += 1) {
    const t = ticketOf[j]!;
    const c = contactOf(t);
    const out = fromMe[j] === 1;
    const bytes = messageBytes(j);
    const body = messageBody(j, bytes);
    const wid = `3EB0${hash('md5', `${j}:id`).slice(0, 18).toUpperCase()}`;
    const at = messageAt[j]!;
    const atIso = iso(at);
    rows.push([
      j,
      companyId,
      wid,
      t,
      c,
      queue[t]!,
      body,
      out,
      true,
      out ? 3 : 0,
      contactNumber[c]!,
      rawMessage(j, bytes, wid, contactNumber[c]!, out, body, at, contactName[c]!),
      out ? 'sent' : 'received',
      atIso,
      atIso,
    ]);
    await flush(MESSAGES);
  }
  await flush(MESSAGES, true);
}

/** A hash of what the dataset depends on: this file, the migrations, the version and the scale (readable at its end). */
function datasetKey(): string {
  const migrations = path.join(ROOT, 'migrations');
  const sources = readdirSync(migrations)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => f + readFileSync(path.join(migrations, f), 'utf8'));
  sources.push(readFileSync(fileURLToPath(import.meta.url), 'utf8'), String(DATASET_VERSION), String(SCALE));
  const key = hash('md5', sources.join('\0')).slice(0, 10);
  return SCALE === 1 ? key : `${key}_x${String(SCALE).replace('.', '_')}`;
}

/**
 * Company, plan, people, queues, tags and connections through the running product (migrations,
 * settings, password hashes), on the database at `databaseUrl`.
 */
async function seedPeople(databaseUrl: string, dir: string): Promise<Ids> {
  const config = loadConfig({
    dir,
    env: {},
    flags: { port: 0, host: '127.0.0.1', logLevel: 'warn', databaseUrl, adminEmail: SUPER.email, adminPassword: SUPER.password, simulator: true },
  });
  const atende = await startAtende(config, createLogger('warn', false));
  try {
    const { db, services } = atende.container;
    return await db.transaction(async (trx) => {
      const plan = await services.plans.ensure(
        { name: 'Bench', users: 50, connections: 10, queues: 10, value: 0, useCampaigns: true, useKanban: true, useOpenAi: true, useIntegrations: true, useSchedules: true, useInternalChat: true, useExternalApi: true },
        trx,
      );
      const { company, admin } = await services.companies.createTenant(
        { name: 'Empresa 1', email: ADMIN_EMAIL, password: PASSWORD, planId: plan.id, dueDate: null, adminName: 'Admin' },
        trx,
      );
      const first = await Queue.query(trx).where('companyId', company.id).orderBy('id').first();
      const comercial = first
        ? await first.$query(trx).patchAndFetch({ name: 'Comercial', color: '#1E88E5', greetingMessage: '' })
        : await Queue.query(trx).insert({ companyId: company.id, name: 'Comercial', color: '#1E88E5', greetingMessage: '', schedules: DEFAULT_SCHEDULES });
      const suporte = await Queue.query(trx).insert({ companyId: company.id, name: 'Suporte', color: '#E53935', greetingMessage: '', schedules: DEFAULT_SCHEDULES });
      const queueIds: [number, number] = [comercial.id, suporte.id];
      await trx('userQueues').insert(queueIds.map((queueId) => ({ userId: admin.id, queueId })));

      const connection = (name: string, extra: Partial<Whatsapp> = {}) =>
        Whatsapp.query(trx).insert({
          companyId: company.id,
          name,
          provider: 'simulator',
          status: 'DISCONNECTED',
          qrcode: '',
          retries: 0,
          number: '',
          isDefault: false,
          greetingMessage: 'Olá! Digite 1 para Comercial ou 2 para Suporte.',
          complationMessage: '',
          outOfHoursMessage: '',
          ratingMessage: '',
          expiresInactiveMessage: '',
          expiresTicket: 0,
          timeUseBotQueues: 0,
          maxUseBotQueues: 3,
          timeToTransfer: null,
          transferQueueId: null,
          promptId: null,
          integrationId: null,
          token: null,
          ...extra,
        });
      const connectionIds: number[] = [];
      for (let k = 1; k <= COUNTS.connections; k += 1) {
        const row = await connection(`Conexão ${k}`, { isDefault: k === 1 });
        await trx('whatsappQueues').insert(queueIds.map((queueId) => ({ whatsappId: row.id, queueId })));
        connectionIds.push(row.id);
      }
      // Paired already (its number stored), so it comes up CONNECTED at start without a scan.
      const inbound = await connection('Entrada bench', { number: '5511999990001', status: 'CONNECTED', greetingMessage: '' });
      await trx('whatsappQueues').insert({ whatsappId: inbound.id, queueId: comercial.id });

      const agentIds: number[] = [];
      for (let k = 1; k <= 10; k += 1) {
        const email = `agent${String(k).padStart(2, '0')}@bench.local`;
        const agent = await services.users.create(
          company.id,
          { name: `Agente ${k}`, email, password: PASSWORD, profile: 'user', queueIds: [queueIds[k <= 5 ? 0 : 1]] },
          trx,
        );
        agentIds.push(agent.id);
      }
      const now = new Date().toISOString();
      const tagIds: number[] = [];
      for (const [index, name] of TAGS.entries()) {
        const [row] = await trx('tags')
          .insert({ companyId: company.id, name, color: ['#E53935', '#8E24AA', '#1E88E5', '#43A047'][index], kanban: 0, createdAt: now, updatedAt: now })
          .returning('id');
        tagIds.push(typeof row === 'object' ? (row as { id: number }).id : Number(row));
      }
      await trx.schema.createTable('bench_dataset', (t) => t.text('meta').notNullable());
      const meta = { companyId: company.id, queueIds, adminId: admin.id, agentIds, connectionIds, inboundConnectionId: inbound.id, tagIds };
      await trx('bench_dataset').insert({ meta: JSON.stringify(meta) });
      return { companyId: company.id, queueIds, agentIds, connectionIds, tagIds };
    });
  } finally {
    await atende.stop();
  }
}

async function saveMeta(run: (sql: string, params: unknown[]) => Promise<unknown>, read: () => Promise<string>, extra: Pick<DatasetMeta, 't0' | 'buildSeconds'>): Promise<void> {
  const stored = JSON.parse(await read()) as Omit<DatasetMeta, 'version' | 't0' | 'buildSeconds' | 'agents'> & { agentIds: number[] };
  const agents = stored.agentIds.map((id, k) => ({ id, email: `agent${String(k + 1).padStart(2, '0')}@bench.local`, queueId: stored.queueIds[k < 5 ? 0 : 1] }));
  const meta: DatasetMeta = {
    version: DATASET_VERSION,
    t0: extra.t0,
    companyId: stored.companyId,
    queueIds: stored.queueIds,
    adminId: stored.adminId,
    agents,
    connectionIds: stored.connectionIds,
    inboundConnectionId: stored.inboundConnectionId,
    tagIds: stored.tagIds,
    messages: COUNTS.messages,
    buildSeconds: extra.buildSeconds,
  };
  await run('UPDATE bench_dataset SET meta = $1', [JSON.stringify(meta)]);
}

/* ------------------------------------------------- what this run made */

/**
 * The files and databases this process made (run copies, a build in progress), each with how to
 * remove it: removed when done, on failure, and on Ctrl-C or SIGTERM. Nothing else is touched.
 */
const made = new Map<string, () => Promise<void> | void>();

async function removeMade(): Promise<void> {
  for (const [what, remove] of [...made]) {
    made.delete(what);
    await Promise.resolve(remove()).catch((err: unknown) => console.error(`could not remove ${what}: ${String(err)}`));
  }
}

function onSignal(signal: NodeJS.Signals): void {
  process.removeListener('SIGINT', onSignal);
  process.removeListener('SIGTERM', onSignal);
  // Removed, then the signal again with its default action: the process ends as it was asked to.
  void removeMade().finally(() => process.kill(process.pid, signal));
}

/** Registers `what` as made by this run; the answer removes it (once). */
function track(what: string, remove: () => Promise<void> | void): () => Promise<void> {
  if (!process.listeners('SIGINT').includes(onSignal)) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  made.set(what, remove);
  return async () => {
    if (made.delete(what)) await remove();
  };
}

function removeSqlite(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/* ------------------------------------------------------------------ SQLite */

async function buildSqlite(file: string, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const clock = startClock();
  const work = path.join(path.dirname(file), `build-${process.pid}`);
  // Per process: another checkout may be building the same dataset at the same time.
  const building = `${file}.building-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  removeSqlite(building);
  mkdirSync(work, { recursive: true });
  const abandon = track(building, () => {
    removeSqlite(building);
    rmSync(work, { recursive: true, force: true });
  });
  const ids = await seedPeople(building, work);
  log(`people, queues and connections created: ${elapsed(clock)}`);

  const db = new SqliteDriver(building);
  // The search tables' triggers fold each body as the product's connections do.
  registerSearchFold(db);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -262144');
    for (const table of ['contacts', 'tickets', 'messages']) {
      const { count } = db.prepare(`SELECT count(*) AS count FROM ${table}`).get() as { count: number };
      if (count > 0) throw new Error(`bench dataset: ${table} should be empty before the bulk insert`);
    }
    // Secondary indexes of messages are built once at the end: far faster than row by row.
    const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL").all() as { name: string; sql: string }[];
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    const statements = new Map<string, BetterSqlite3.Statement>();
    const t0 = Math.floor(Date.now() / 60_000) * 60;
    const writer: BulkWriter = {
      async insert(table, rows) {
        let statement = statements.get(table.name);
        if (!statement) {
          statement = db.prepare(`INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`);
          statements.set(table.name, statement);
        }
        const insert = statement;
        db.transaction(() => {
          for (const row of rows) insert.run(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)));
        })();
      },
    };
    await writeRows(writer, ids, t0);
    log(`rows written (with the search index): ${elapsed(clock)}`);
    for (const index of indexes) db.exec(index.sql);
    log(`messages indexed: ${elapsed(clock)}`);
    await saveMeta(
      async (sql, params) => db.prepare(sql.replace('$1', '?')).run(...(params as string[])),
      async () => (db.prepare('SELECT meta FROM bench_dataset').get() as { meta: string }).meta,
      { t0, buildSeconds: Math.round((performance.now() - started) / 1000) },
    );
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  renameSync(building, file);
  await abandon();
}

/**
 * Writes a fresh copy's pages to the disk before the server starts: otherwise the kernel writes
 * back the copy's gigabytes while the server runs, and the server's own writes wait behind them
 * (seen: 47% of the CPU waiting on I/O during an inbound run that followed a copy).
 */
function flushToDisk(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function sqliteDataset(log: (line: string) => void): Promise<BenchDatabase> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = path.join(CACHE_DIR, `dataset-${datasetKey()}.sqlite`);
  const built = !existsSync(file);
  // Datasets of other schemas stay: another checkout may still use them.
  if (built) await buildSqlite(file, log);
  const copy = path.join(CACHE_DIR, `run-${process.pid}.sqlite`);
  const release = track(copy, () => removeSqlite(copy));
  copyFileSync(file, copy);
  flushToDisk(copy);
  const db = new SqliteDriver(copy, { readonly: true });
  const meta = JSON.parse((db.prepare('SELECT meta FROM bench_dataset').get() as { meta: string }).meta) as DatasetMeta;
  db.close();
  return {
    kind: 'sqlite',
    databaseUrl: copy,
    meta,
    built,
    release,
  };
}

/* -------------------------------------------------------------- PostgreSQL */

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function buildPostgres(serverUrl: string, name: string, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const clock = startClock();
  // Per process: another checkout may be building the same dataset at the same time.
  const building = `${name}_building_${process.pid}`;
  const dropBuilding = () => onServer(serverUrl, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)));
  await dropBuilding();
  const abandon = track(building, dropBuilding);
  await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${building}`));
  const work = path.join(CACHE_DIR, `build-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const ids = await seedPeople(withDatabase(serverUrl, building), work);
  rmSync(work, { recursive: true, force: true });
  log(`people, queues and connections created: ${elapsed(clock)}`);

  await onServer(withDatabase(serverUrl, building), async (c) => {
    // Foreign keys are checked by triggers; the rows are consistent by construction.
    await c.query('SET session_replication_role = replica').catch(() => log('cannot skip foreign-key triggers (not a superuser): slower build'));
    // The messages' indexes and those of the folded copy their trigger writes (a trigram GIN index
    // among them) are built once the rows are in: kept up row by row, they made a 10× build crawl.
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('messages', 'message_search')
         AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid IN ('messages'::regclass, 'message_search'::regclass))`,
    );
    for (const index of indexes) await c.query(`DROP INDEX ${index.indexname}`);
    const t0 = Math.floor(Date.now() / 60_000) * 60;
    const writer: BulkWriter = {
      async insert(table, rows) {
        const columns = table.columns.map((_, k) => rows.map((row) => row[k]));
        const unnest = table.types.map((type, k) => `$${k + 1}::${type}[]`).join(', ');
        await c.query(`INSERT INTO ${table.name} (${table.columns.join(', ')}) SELECT * FROM unnest(${unnest})`, columns);
      },
    };
    await c.query('BEGIN');
    await writeRows(writer, ids, t0);
    await c.query('COMMIT');
    log(`rows written: ${elapsed(clock)}`);
    for (const index of indexes) await c.query(index.indexdef);
    for (const table of ['contacts', 'tickets', 'messages']) {
      await c.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    // As autovacuum leaves a table some time after its inserts: GIN pending lists merged into their
    // index, pages marked all-visible (index-only scans read no heap).
    await c.query('VACUUM ANALYZE');
    log(`messages indexed, tables analyzed: ${elapsed(clock)}`);
    await saveMeta(
      (sql, params) => c.query(sql, params),
      async () => (await c.query<{ meta: string }>('SELECT meta FROM bench_dataset')).rows[0]!.meta,
      { t0, buildSeconds: Math.round((performance.now() - started) / 1000) },
    );
  });
  const renamed = await onServer(serverUrl, (c) => c.query(`ALTER DATABASE ${building} RENAME TO ${name}`).then(() => true, () => false));
  // Not renamed: another process finished the same dataset first, and that one serves.
  if (renamed) made.delete(building);
  else await abandon();
}

async function postgresDataset(serverUrl: string, log: (line: string) => void): Promise<BenchDatabase> {
  const name = `atende_bench_${datasetKey()}`;
  const existing = await onServer(serverUrl, (c) => c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'atende_bench_%'"));
  const built = !existing.rows.some((r) => r.datname === name);
  // Only what this run made is dropped: datasets of other schemas may serve another checkout.
  if (built) await buildPostgres(serverUrl, name, log);
  const copy = `atende_bench_run_${process.pid}`;
  const dropCopy = () => onServer(serverUrl, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`)));
  // A copy of this name is this process's: left by an earlier process of the same id that was killed.
  await dropCopy();
  const release = track(copy, dropCopy);
  await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${copy} TEMPLATE ${name}`));
  const databaseUrl = withDatabase(serverUrl, copy);
  const meta = await onServer(databaseUrl, async (c) => JSON.parse((await c.query<{ meta: string }>('SELECT meta FROM bench_dataset')).rows[0]!.meta) as DatasetMeta);
  return {
    kind: 'pg',
    databaseUrl,
    meta,
    built,
    release,
  };
}

/** A run copy of the dataset on SQLite, or on the PostgreSQL server at `pgUrl`; built first when not cached. */
export async function benchDatabase(kind: 'sqlite' | 'pg', options: { pgUrl?: string; log?: (line: string) => void } = {}): Promise<BenchDatabase> {
  const log = options.log ?? ((line: string) => console.log(`  [dataset ${kind}] ${line}`));
  if (kind === 'sqlite') return sqliteDataset(log);
  if (!options.pgUrl) throw new Error('benchDatabase(pg) needs a PostgreSQL address');
  return postgresDataset(options.pgUrl, log);
}
