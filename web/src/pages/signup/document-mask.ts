const CPF: [number, string][] = [[3, '.'], [3, '.'], [3, '-'], [2, '']];
const CNPJ: [number, string][] = [[2, '.'], [3, '.'], [3, '/'], [4, '-'], [2, '']];

/** Masks typed digits as a CPF (000.000.000-00) or, past 11 digits, a CNPJ (00.000.000/0000-00). */
export function maskDocument(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 14);
  let masked = '';
  let at = 0;
  for (const [size, separator] of digits.length <= 11 ? CPF : CNPJ) {
    const part = digits.slice(at, at + size);
    if (!part) break;
    at += size;
    masked += part + (at < digits.length ? separator : '');
  }
  return masked;
}
