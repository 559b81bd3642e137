/**
 * The static Pix "copia e cola" code (BR Code): an EMV merchant-presented QR payload as the Banco
 * Central's Pix manual defines it, ending in its CRC16. Built on the server from the invoice, so
 * the amount never comes from a browser.
 */
export interface PixCharge {
  /** The receiver's Pix key (e-mail, phone +55…, CPF/CNPJ digits or random key). */
  key: string;
  /** Shown to the payer: up to 25 characters, without accents. */
  name: string;
  /** Up to 15 characters, without accents. */
  city: string;
  /** Reais, two decimals. */
  amount: number;
  /** The payer's bank returns it with the payment: up to 25 letters and digits. */
  txid: string;
}

/** One EMV field: its id, its length in two digits, its value. */
function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Letters, digits and spaces only (the payload is read as ASCII), cut to `max`. */
function plain(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .@+-]/g, '')
    .slice(0, max)
    .trim();
}

/** CRC16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), four hex digits, as the BR Code ends. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function pixPayload({ key, name, city, amount, txid }: PixCharge): string {
  const body = [
    field('00', '01'),
    field('26', field('00', 'br.gov.bcb.pix') + field('01', key.trim())),
    field('52', '0000'),
    field('53', '986'),
    ...(amount > 0 ? [field('54', amount.toFixed(2))] : []),
    field('58', 'BR'),
    field('59', plain(name, 25)),
    field('60', plain(city, 15)),
    field('62', field('05', txid.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***')),
  ].join('');
  const withCrcField = `${body}6304`;
  return withCrcField + crc16(withCrcField);
}
