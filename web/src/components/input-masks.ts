/** The spec's masks (§9): CPF/CNPJ, card number in groups of four (16 digits), expiry MM/YYYY, CEP 99999-999. */

const CPF: [number, string][] = [[3, '.'], [3, '.'], [3, '-'], [2, '']];
const CNPJ: [number, string][] = [[2, '.'], [3, '.'], [3, '/'], [4, '-'], [2, '']];

function digits(text: string, max: number): string {
  return text.replace(/\D/g, '').slice(0, max);
}

/** Masks typed digits as a CPF (000.000.000-00) or, past 11 digits, a CNPJ (00.000.000/0000-00). */
export function maskDocument(text: string): string {
  const typed = digits(text, 14);
  let masked = '';
  let at = 0;
  for (const [size, separator] of typed.length <= 11 ? CPF : CNPJ) {
    const part = typed.slice(at, at + size);
    if (!part) break;
    at += size;
    masked += part + (at < typed.length ? separator : '');
  }
  return masked;
}

export function maskCardNumber(text: string): string {
  return digits(text, 16).replace(/(\d{4})(?=\d)/g, '$1 ');
}

export function maskExpiry(text: string): string {
  const d = digits(text, 6);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
}

export function maskPostalCode(text: string): string {
  const d = digits(text, 8);
  return d.length > 5 ? `${d.slice(0, 5)}-${d.slice(5)}` : d;
}
