import { jidDecode } from '@whiskeysockets/baileys';

export { canonicalNumber, digitsOf, isGroupId, numberForms } from '../phone.js';

/** The user part of a JID without device or agent ("5511987654321:3@s.whatsapp.net" → "5511987654321"). */
export function jidUser(jid: string | null | undefined): string | undefined {
  return jidDecode(jid ?? undefined)?.user || undefined;
}
