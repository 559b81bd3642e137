import { canonicalNumber, digitsOf } from '../phone.js';

/**
 * The simulator's idea of a WhatsApp number: 8 to 15 digits (E.164's bounds) in Atende's canonical
 * form (a Brazilian mobile with its ninth digit); null when it cannot be one.
 */
export function simulatedNumber(input: string): string | null {
  const digits = digitsOf(input);
  return digits.length < 8 || digits.length > 15 ? null : canonicalNumber(digits);
}
