/** Brazilian tax documents: CPF (11 digits) and CNPJ (14 digits), checked by their two check digits. */

export function digitsOnly(text: string): string {
  return text.replace(/\D/g, '');
}

/** The check digit of `digits` weighted by `weights` (modulo 11; a remainder under 2 gives 0). */
function checkDigit(digits: string, weights: number[]): number {
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Every digit alike (000.000.000-00, 11111111111111) passes the arithmetic but is no document. */
function repeated(digits: string): boolean {
  return /^(\d)\1*$/.test(digits);
}

export function isValidCpf(text: string): boolean {
  const cpf = digitsOnly(text);
  if (cpf.length !== 11 || repeated(cpf)) return false;
  const first = checkDigit(cpf, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(cpf, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(cpf[9]) && second === Number(cpf[10]);
}

export function isValidCnpj(text: string): boolean {
  const cnpj = digitsOnly(text);
  if (cnpj.length !== 14 || repeated(cnpj)) return false;
  const first = checkDigit(cnpj, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(cnpj, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === Number(cnpj[12]) && second === Number(cnpj[13]);
}

/** A CPF or a CNPJ, masked or not. */
export function isValidDocument(text: string): boolean {
  return isValidCpf(text) || isValidCnpj(text);
}
