/**
 * Phone numbers as Atende keeps them: digits only, country code first, one form per person.
 *
 * Brazil's ninth digit: mobile numbers went from 8 to 9 subscriber digits (a leading 9) area by
 * area between 2012 and November 2016, so today every Brazilian mobile has 9 digits. WhatsApp
 * still knows accounts registered before the change by their old 8-digit form, so the same person
 * can reach us as 55 11 8765-4321 and as 55 11 98765-4321. Mobiles start with 6–9 in the old
 * form (landlines with 2–5, and keep 8 digits), so an 8-digit Brazilian number starting with 6–9
 * is a mobile written the old way and gets its 9 back: the 9-digit form is the canonical one.
 */
const BRAZIL_OLD_MOBILE = /^55([1-9][1-9])([6-9]\d{7})$/;
const BRAZIL_NEW_MOBILE = /^55([1-9][1-9])9([6-9]\d{7})$/;

/** Digits of a number typed any way ("+55 (11) 98765-4321" → "5511987654321"). */
export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** The one form Atende stores for a phone number. */
export function canonicalNumber(value: string): string {
  const digits = digitsOf(value);
  const old = BRAZIL_OLD_MOBILE.exec(digits);
  return old ? `55${old[1]}9${old[2]}` : digits;
}

/** Every form WhatsApp may know a number by: the canonical one first, then a Brazilian mobile's 8-digit form. */
export function numberForms(value: string): string[] {
  const canonical = canonicalNumber(value);
  const mobile = BRAZIL_NEW_MOBILE.exec(canonical);
  return mobile ? [canonical, `55${mobile[1]}${mobile[2]}`] : [canonical];
}

/**
 * Group ids are longer than any phone number (E.164 allows at most 15 digits) or, for old groups,
 * "<creator>-<timestamp>": that is how a chat id given back to the driver is told apart.
 */
export function isGroupId(value: string): boolean {
  return value.includes('-') || digitsOf(value).length > 15;
}
