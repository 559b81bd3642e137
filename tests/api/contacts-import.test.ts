import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSocket } from '../helpers/socket.js';
import { Contact } from '../../core/modules/contacts/contact.model.js';

let server: TestServer;
const PASSWORD = 'secret-123';

interface Tenant {
  companyId: number;
  adminToken: string;
  userToken: string;
}

async function tenant(name: string): Promise<Tenant> {
  const slug = name.toLowerCase().replace(/\W/g, '');
  const { company } = await server.atende.container.services.companies.createTenant({ name, email: `admin@${slug}.test`, password: PASSWORD });
  const adminToken = (await server.login(`admin@${slug}.test`, PASSWORD)).token;
  await server.call('POST', '/api/users', { token: adminToken, body: { name: 'Agent', email: `agent@${slug}.test`, password: PASSWORD, profile: 'user' } });
  const userToken = (await server.login(`agent@${slug}.test`, PASSWORD)).token;
  return { companyId: company.id, adminToken, userToken };
}

/** POST of one file as multipart/form-data, the way the browser sends it. */
async function upload(route: string, token: string | undefined, data: Buffer | string, fileName: string) {
  const form = new FormData();
  form.append('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)]), fileName);
  const res = await fetch(`${server.url}/api/contacts/${route}`, {
    method: 'POST',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read any shape
}

/** A real .xlsx, as Excel would save it: the header row, then the data (numbers as numeric cells). */
async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function names(t: Tenant): Promise<string[]> {
  const rows = await Contact.query(server.atende.container.db).where('companyId', t.companyId).orderBy('name');
  return rows.map((c) => `${c.name}|${c.number}|${c.email}`);
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('importing an XLSX file', () => {
  let t: Tenant;
  let file: Buffer;
  beforeAll(async () => {
    t = await tenant('Planilha Co');
    // Already known: the file renames Existente and gives it an e-mail; Igual is unchanged.
    await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name: 'Existente', number: '5511955550000' } });
    await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name: 'Igual', number: '5511955550009', email: 'igual@x.co' } });
    file = await xlsx([
      ['Nome', 'Número', 'E-MAIL', 'Observação'],
      ['Maria Silva', 5511955550001, 'maria@x.co', 'vip'],
      ['João Souza', '+55 (11) 95555-0002', '', ''],
      [null, 5511955550003, 'sem-nome@x.co', ''],
      ['Número Ruim', '1234', '', ''],
      ['Email Ruim', 5511955550004, 'not-an-email', ''],
      ['Maria Repetida', 5511955550001, '', ''],
      [],
      ['Existente Renomeado', 5511955550000, 'existente@x.co', ''],
      ['Igual', 5511955550009, '', ''],
      ['Sem Número', null, 'x@x.co', ''],
    ]);
  });

  it('the preview tells what would be created, updated and rejected (and why), and writes nothing', async () => {
    const before = await names(t);
    const res = await upload('import/preview', t.userToken, file, 'contatos.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      create: 2,
      update: 1,
      unchanged: 1,
      rejected: [
        { row: 4, reason: 'missing_name', message: 'Missing name' },
        { row: 5, reason: 'invalid_number', message: 'The number must have 8 to 50 digits' },
        { row: 6, reason: 'invalid_email', message: 'Invalid email' },
        { row: 7, reason: 'duplicate_in_file', message: 'This number is repeated in the file', firstRow: 2 },
        { row: 11, reason: 'missing_number', message: 'Missing number' },
      ],
      rows: [
        { row: 2, name: 'Maria Silva', number: '5511955550001', email: 'maria@x.co', action: 'create' },
        { row: 3, name: 'João Souza', number: '+55 (11) 95555-0002', email: '', action: 'create' },
        { row: 4, name: '', number: '5511955550003', email: 'sem-nome@x.co', action: 'rejected' },
        { row: 5, name: 'Número Ruim', number: '1234', email: '', action: 'rejected' },
        { row: 6, name: 'Email Ruim', number: '5511955550004', email: 'not-an-email', action: 'rejected' },
        { row: 7, name: 'Maria Repetida', number: '5511955550001', email: '', action: 'rejected' },
        { row: 9, name: 'Existente Renomeado', number: '5511955550000', email: 'existente@x.co', action: 'update' },
        { row: 10, name: 'Igual', number: '5511955550009', email: '', action: 'unchanged' },
        { row: 11, name: 'Sem Número', number: '', email: 'x@x.co', action: 'rejected' },
      ],
    });
    expect(await names(t)).toEqual(before);
  });

  it('the import writes the same report in one go and tells the company once', async () => {
    const socket = await openSocket(server.url, t.adminToken);
    const preview = await upload('import/preview', t.userToken, file, 'contatos.xlsx');
    const res = await upload('import/file', t.userToken, file, 'contatos.xlsx');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(preview.body);
    expect(await names(t)).toEqual([
      'Existente Renomeado|5511955550000|existente@x.co',
      'Igual|5511955550009|igual@x.co',
      'João Souza|5511955550002|',
      'Maria Silva|5511955550001|maria@x.co',
    ]);
    const frame = await socket.next((f) => f.channel === `company-${t.companyId}-contact`);
    expect(frame.data).toEqual({ action: 'import', created: 2, updated: 1 });
    await socket.close();
    const created = await Contact.query(server.atende.container.db).findOne({ companyId: t.companyId, number: '5511955550001' });
    expect(created?.uuid).toMatch(/^[0-9a-f-]{36}$/);

    const again = await upload('import/file', t.userToken, file, 'contatos.xlsx');
    expect(again.body).toMatchObject({ create: 0, update: 0, unchanged: 4 });
  });

  it("another company's import of the same numbers creates its own contacts and leaves these alone", async () => {
    const other = await tenant('Outra Planilha');
    const res = await upload('import/file', other.adminToken, file, 'contatos.xlsx');
    expect(res.body).toMatchObject({ create: 4, update: 0, unchanged: 0 });
    expect(await names(t)).toContain('Existente Renomeado|5511955550000|existente@x.co');
    expect(await names(other)).toContain('Existente Renomeado|5511955550000|existente@x.co');
  });
});

describe('importing a CSV file', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant('CSV Co');
  });

  it("reads ';' with quotes, a BOM and CRLF lines, and names the bad rows", async () => {
    const csv =
      '\uFEFFnome;telefone;email\r\n' +
      '"Souza; Ana";5581999990001;ana@x.co\r\n' +
      '"Dito ""Pé"" Lima";"+55 81 99999-0002";\r\n' +
      ';5581999990003;\r\n' +
      'Bia;abc;\r\n' +
      'Bia 2;5581999990001;\r\n';
    const res = await upload('import/file', t.adminToken, csv, 'lista.csv');
    expect(res.body).toMatchObject({
      create: 2,
      update: 0,
      rejected: [
        { row: 4, reason: 'missing_name' },
        { row: 5, reason: 'invalid_number' },
        { row: 6, reason: 'duplicate_in_file', firstRow: 2 },
      ],
    });
    expect(await names(t)).toEqual(['Dito "Pé" Lima|5581999990002|', 'Souza; Ana|5581999990001|ana@x.co']);
  });

  it("reads ',' without a BOM, headers in any case and accent, and Windows-1252 text", async () => {
    const csv = Buffer.concat([Buffer.from('NAME,Número,E-mail\n', 'latin1'), Buffer.from('José Araújo,5581999990010,jose@x.co\n', 'latin1')]);
    const res = await upload('import/file', t.adminToken, csv, 'latin.csv');
    expect(res.body).toMatchObject({ create: 1, rejected: [] });
    expect(await names(t)).toContain('José Araújo|5581999990010|jose@x.co');
  });

  it('refuses files it cannot read, with a reason', async () => {
    const noHeader = await upload('import/preview', t.adminToken, 'Ana;5581999990001\n', 'x.csv');
    expect(noHeader).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_NO_HEADER' } });
    const text = await upload('import/preview', t.adminToken, 'name;number\nAna;5581999990001\n', 'x.txt');
    expect(text).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_FILE_TYPE' } });
    const legacy = await upload('import/preview', t.adminToken, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), 'old.xls');
    expect(legacy).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_FILE_TYPE' } });
    const broken = await upload('import/preview', t.adminToken, Buffer.from('PK\u0003\u0004 not really a zip'), 'broken.xlsx');
    expect(broken).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_FILE_TYPE' } });
    const big = await upload('import/preview', t.adminToken, `name;number\n${'x'.repeat(6 * 1024 * 1024)}`, 'big.csv');
    expect(big).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    const json = await server.call('POST', '/api/contacts/import/preview', { token: t.adminToken, body: { file: 'x' } });
    expect(json).toMatchObject({ status: 400, body: { error: 'ERR_IMPORT_FILE' } });
    expect((await upload('import/preview', undefined, 'name;number\n', 'x.csv')).status).toBe(401);
  });
});

describe('a file of 1,000 contacts', () => {
  it('imports in one transaction (timing printed, not asserted)', async () => {
    const t = await tenant('Mil Contatos');
    const rows: (string | number)[][] = [['name', 'number', 'email']];
    for (let i = 1; i <= 1000; i += 1) rows.push([`Contato ${String(i).padStart(4, '0')}`, 5511970000000 + i, `c${i}@mil.co`]);
    const file = await xlsx(rows);
    const started = performance.now();
    const res = await upload('import/file', t.adminToken, file, 'mil.xlsx');
    const ms = Math.round(performance.now() - started);
    console.log(`[contacts import] 1,000 XLSX rows on ${process.env.ATENDE_TEST_DB === 'pg' ? 'PostgreSQL' : 'SQLite'}: ${ms} ms`);
    expect(res.body).toMatchObject({ create: 1000, update: 0, rejected: [] });
    expect(res.body.rows).toHaveLength(20);
    const list = await server.call('GET', '/api/contacts', { token: t.userToken });
    expect(list.body.count).toBe(1000);
  });
});

describe('GET /api/contacts/export', () => {
  it("answers contatos.csv (';', BOM, name;number;email) that imports back with no rejections", async () => {
    const t = await tenant('Export Co');
    for (const [name, number, email] of [
      ['Ana; com ponto e vírgula', '5511961110001', 'ana@x.co'],
      ['Bruno "Aspas"', '5511961110002', ''],
      ['=1+1 Fórmula', '5511961110003', ''],
      ['Çé Acentuado', '5511961110004', 'ce@x.co'],
    ]) {
      await server.call('POST', '/api/contacts', { token: t.adminToken, body: { name, number, email } });
    }
    const res = await fetch(`${server.url}/api/contacts/export`, { headers: { Authorization: `Bearer ${t.userToken}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="contatos.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    const [header, ...lines] = text.split('\r\n');
    expect(header).toBe('name;number;email');
    expect(lines.pop()).toBe('');
    // By name; where '=' sorts depends on the database's collation.
    expect(lines.sort()).toEqual(
      [
        '"Ana; com ponto e vírgula";5511961110001;ana@x.co',
        '"Bruno ""Aspas""";5511961110002;',
        "'=1+1 Fórmula;5511961110003;",
        'Çé Acentuado;5511961110004;ce@x.co',
      ].sort(),
    );
    const before = await names(t);
    const back = await upload('import/file', t.adminToken, bytes, 'contatos.csv');
    expect(back.body).toMatchObject({ create: 0, update: 0, unchanged: 4, rejected: [] });
    expect(await names(t)).toEqual(before);
    // Into an empty company the same file creates the same contacts.
    const empty = await tenant('Export Target');
    expect((await upload('import/file', empty.adminToken, bytes, 'contatos.csv')).body).toMatchObject({ create: 4, rejected: [] });
    expect(await names(empty)).toEqual(before);
  });
});
