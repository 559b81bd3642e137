import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Container } from '../container.js';
import { randomPassword } from '../auth/password.js';
import { Company } from '../modules/companies/company.model.js';
import { DEFAULT_SCHEDULES } from '../modules/companies/companies.schema.js';
import { Queue } from '../modules/queues/queue.model.js';
import { Whatsapp } from '../modules/whatsapp/whatsapp.model.js';
import { newToken } from '../modules/whatsapp/whatsapp.service.js';

export const DEMO_COMPANY = 'Demonstração';
export const DEMO_CREDENTIALS_FILE = 'data/demo-credentials.txt';

const ADMIN = { name: 'Admin Demonstração', email: 'admin@demonstracao.local' };
const AGENTS = [
  { name: 'Ana Souza', email: 'ana@demonstracao.local', queue: 'Vendas' },
  { name: 'Bruno Lima', email: 'bruno@demonstracao.local', queue: 'Suporte' },
] as const;
const QUEUES = [
  { name: 'Vendas', color: '#2E7D32', orderQueue: 1, greetingMessage: 'Que bom falar com você! Em que produto tem interesse?' },
  { name: 'Suporte', color: '#C62828', orderQueue: 2, greetingMessage: 'Conte-nos o que aconteceu e já vamos ajudar.' },
] as const;
const CONNECTION = {
  name: 'WhatsApp Demonstração',
  number: '5511999990000',
  greetingMessage: 'Olá, {{firstName}}! Bem-vindo à Demonstração. Escolha um setor:',
};
/** Customers who write a few seconds apart after start. Fixed ids: on a later start they are replays, never new messages. */
const CUSTOMERS = [
  { id: 'DEMO-1', from: '5511987650001', name: 'Carla Mendes', body: 'Olá! Gostaria de saber o preço do plano anual.' },
  { id: 'DEMO-2', from: '5521987650002', name: 'João Pereira', body: 'Bom dia, meu pedido ainda não chegou.' },
  // They answer the bot's menu: 1 Vendas, 2 Suporte.
  { id: 'DEMO-3', from: '5511987650001', name: 'Carla Mendes', body: '1' },
  { id: 'DEMO-4', from: '5521987650002', name: 'João Pereira', body: '2' },
  { id: 'DEMO-5', from: '5531987650003', name: 'Mariana Lima', body: 'Vocês atendem aos sábados?' },
  { id: 'DEMO-6', from: '5531987650003', name: 'Mariana Lima', body: '1' },
  { id: 'DEMO-7', from: '5511987650001', name: 'Carla Mendes', body: 'Também queria saber se há desconto para pagamento à vista.' },
] as const;
const CUSTOMER_INTERVAL_MS = 3000;

export interface DemoUser {
  role: 'admin' | 'agent';
  name: string;
  email: string;
}

export interface Demo {
  company: string;
  /** Whether this start created the demo company (and so the passwords below are new). */
  created: boolean;
  users: (DemoUser & { password?: string })[];
  /** Where the passwords are kept (mode 0600). */
  file: string;
  connectionId: number | undefined;
}

/**
 * `serve --demo`: once per database, a demo company with an admin and two agents (random
 * passwords, kept in data/demo-credentials.txt), two queues and a simulated connection already
 * paired and default. Later starts find the company by name and leave it as it is.
 */
export async function seedDemo(c: Container): Promise<Demo> {
  const file = path.join(c.config.dir, DEMO_CREDENTIALS_FILE);
  const users: DemoUser[] = [{ role: 'admin', ...ADMIN }, ...AGENTS.map(({ name, email }) => ({ role: 'agent' as const, name, email }))];
  const existing = await Company.query(c.db).findOne({ name: DEMO_COMPANY });
  if (existing) {
    const connection = await Whatsapp.query(c.db).where({ companyId: existing.id, provider: 'simulator' }).orderBy('id').first();
    return { company: DEMO_COMPANY, created: false, users, file, connectionId: connection?.id };
  }

  const passwords = users.map(() => randomPassword());
  const connectionId = await c.db.transaction(async (trx) => {
    const { company } = await c.services.companies.createTenant(
      { name: DEMO_COMPANY, email: ADMIN.email, password: passwords[0], adminName: ADMIN.name, dueDate: null },
      trx,
    );
    // The tenant's first queue becomes Vendas; Suporte joins it.
    const first = await Queue.query(trx).where('companyId', company.id).orderBy('id').first();
    const queueIds = new Map<string, number>();
    for (const [index, queue] of QUEUES.entries()) {
      const row =
        index === 0 && first
          ? await first.$query(trx).patchAndFetch({ ...queue })
          : await Queue.query(trx).insert({ companyId: company.id, ...queue, schedules: DEFAULT_SCHEDULES });
      queueIds.set(queue.name, row.id);
    }
    const connection = await Whatsapp.query(trx).insert({
      companyId: company.id,
      name: CONNECTION.name,
      provider: 'simulator',
      status: 'CONNECTED',
      qrcode: '',
      retries: 0,
      number: CONNECTION.number,
      isDefault: true,
      greetingMessage: CONNECTION.greetingMessage,
      complationMessage: 'Atendimento encerrado. Obrigado pelo contato!',
      outOfHoursMessage: 'Estamos fora do horário de atendimento; responderemos assim que possível.',
      ratingMessage: '',
      expiresInactiveMessage: '',
      expiresTicket: 0,
      timeUseBotQueues: 0,
      maxUseBotQueues: 3,
      timeToTransfer: null,
      transferQueueId: null,
      promptId: null,
      integrationId: null,
      token: newToken(),
    });
    await trx('whatsappQueues').insert([...queueIds.values()].map((queueId) => ({ whatsappId: connection.id, queueId })));
    for (const [index, agent] of AGENTS.entries()) {
      await c.services.users.create(
        company.id,
        { name: agent.name, email: agent.email, password: passwords[index + 1]!, profile: 'user', whatsappId: connection.id, queueIds: [queueIds.get(agent.queue)!] },
        trx,
      );
    }
    return connection.id;
  });

  const withPasswords = users.map((user, index) => ({ ...user, password: passwords[index]! }));
  writeCredentials(file, withPasswords);
  return { company: DEMO_COMPANY, created: true, users: withPasswords, file, connectionId };
}

function writeCredentials(file: string, users: (DemoUser & { password: string })[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const lines = users.map((u) => `${u.role}: ${u.email} password: ${u.password}`);
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  // mode only applies when the file is created; an older copy keeps its own permissions otherwise.
  chmodSync(file, 0o600);
}

/**
 * The demo's customers write through the simulated connection, a few seconds apart, once it is
 * connected. Answers a stop function for shutdown.
 */
export function startDemoCustomers(c: Container, connectionId: number): () => Promise<void> {
  const log = c.log.child({ part: 'demo' });
  const timers = CUSTOMERS.map((customer, index) => {
    const timer = setTimeout(() => {
      c.simulator?.api.inbound(connectionId, [customer]).catch((err: unknown) => log.debug({ err, id: customer.id }, 'demo customer not sent'));
    }, (index + 1) * CUSTOMER_INTERVAL_MS);
    timer.unref();
    return timer;
  });
  return async () => timers.forEach(clearTimeout);
}
