/** The spec's card masks (§9): number in groups of four (16 digits), expiry MM/YYYY, CEP 99999-999. */

function digits(text: string, max: number): string {
  return text.replace(/\D/g, '').slice(0, max);
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

/** Masks typed digits as a CPF (000.000.000-00) or, past 11 digits, a CNPJ (00.000.000/0000-00). */
export function maskDocument(text: string): string {
  const d = digits(text, 14);
  if (d.length <= 11) return d.replace(/^(\d{3})(\d)/, '$1.$2').replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3').replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2');
  return d.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{0,2})$/, '$1.$2.$3/$4-$5');
}
