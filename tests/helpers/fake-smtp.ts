import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the fake SMTP server accepted, its MIME decoded. */
export interface ReceivedMail {
  /** Envelope recipients. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface FakeSmtp {
  /** The address to configure (`smtp://127.0.0.1:<port>`). */
  url: string;
  messages: ReceivedMail[];
  /** While true, every message is refused (550), as a server that will not relay it does. */
  refuse: boolean;
  /** How many messages were refused. */
  refused: number;
  close(): Promise<void>;
}

type Headers = Record<string, string>;

function splitHeaders(entity: string): { headers: Headers; body: string } {
  const end = entity.search(/\r?\n\r?\n/);
  const head = end === -1 ? entity : entity.slice(0, end);
  const body = end === -1 ? '' : entity.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Headers = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function quotedPrintable(text: string): Buffer {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(soft.charCodeAt(i));
  }
  return Buffer.from(bytes);
}

function decodeBody(headers: Headers, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(body).toString('utf8');
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`) in a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

/** The leaf parts of a MIME entity (multiparts opened), each with its content type and decoded text. */
function leafParts(entity: string): { type: string; content: string }[] {
  const { headers, body } = splitHeaders(entity);
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!type.startsWith('multipart/') || !boundary) {
    // The line break before a boundary (or ending the message) is not the part's own.
    return [{ type: type.split(';')[0]!.trim(), content: decodeBody(headers, body.replace(/\r?\n$/, '')) }];
  }
  const sections = body.split(`--${boundary}`).slice(1);
  return sections.filter((section) => !section.startsWith('--')).flatMap((section) => leafParts(section.replace(/^\r?\n/, '')));
}

function parseMail(raw: string, envelope: { from: string; to: string[] }): ReceivedMail {
  const { headers } = splitHeaders(raw);
  const parts = leafParts(raw);
  const part = (type: string) => parts.find((p) => p.type === type)?.content ?? '';
  return { ...envelope, subject: decodeHeader(headers.subject ?? ''), text: part('text/plain'), html: part('text/html'), raw };
}

/** A local SMTP server (no TLS, no login) that keeps every message it is given. */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const fake = { messages: [] as ReceivedMail[], refuse: false, refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (fake.refuse) {
          fake.refused += 1;
          callback(Object.assign(new Error('Relay refused'), { responseCode: 550 }));
          return;
        }
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        fake.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), envelope));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
