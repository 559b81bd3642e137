import type { MailMessage } from 'atende/plugin';

export type InvoiceMailKind = 'opened' | 'reminder';

interface InvoiceMailInput {
  to: string;
  companyName: string;
  detail: string;
  value: number;
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The finance page, as users reach the server. */
  link: string;
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** The company's e-mail about an invoice, in Portuguese (companies keep no language of their own). */
export function invoiceMail(kind: InvoiceMailKind, { to, companyName, detail, value, dueDate, link }: InvoiceMailInput): MailMessage {
  const [y, m, d] = dueDate.split('-');
  const due = `${d}/${m}/${y}`;
  // Intl writes R$ with a no-break space; mail clients and subjects read a plain one better.
  const amount = brl.format(value).replace(/\u00a0/g, ' ');
  const subject = kind === 'opened' ? `Nova fatura de ${amount}, vencimento ${due}` : `Lembrete: sua fatura de ${amount} vence em ${due}`;
  const opening =
    kind === 'opened'
      ? `A fatura do plano ${detail} da ${companyName} está disponível: ${amount}, com vencimento em ${due}.`
      : `A fatura do plano ${detail} da ${companyName}, de ${amount}, vence em ${due}.`;
  const text = [
    'Olá,',
    '',
    opening,
    `Pague por Pix em: ${link}`,
    '',
    'Sem o pagamento, o acesso é suspenso alguns dias após o vencimento.',
    '',
    'Atende',
  ].join('\n');
  return { to, subject, text };
}
