import { api } from '../../../api/client';
import type { ChatMessage, MessageSendBody } from '../../../api/types';

/** What POST /api/messages/:ticketId answers; the list shows the messages from the live events. */
interface Sent {
  messages: ChatMessage[];
}

/** A text message, optionally answering `quotedId`. */
export function sendText(ticketId: number, body: string, quotedId: number | null): Promise<Sent> {
  return api.post<Sent>(`/messages/${ticketId}`, { body, ...(quotedId !== null && { quotedMsg: { id: quotedId } }) } satisfies MessageSendBody);
}

/** A quick reply's stored file, with `body` as its caption. */
export function sendQuickReplyMedia(ticketId: number, quickMessageId: number, body: string, quotedId: number | null): Promise<Sent> {
  return api.post<Sent>(`/messages/${ticketId}`, { body, quickMessageId, ...(quotedId !== null && { quotedMsg: { id: quotedId } }) } satisfies MessageSendBody);
}

/** Files from the user's computer (`caption` goes with the first), or a recorded voice note when `ptt`. */
export function sendFiles(ticketId: number, files: File[], options: { caption: string; quotedId: number | null; ptt?: boolean }): Promise<Sent> {
  const data = new FormData();
  for (const file of files) data.append('medias', file, file.name);
  data.set('body', options.caption);
  if (options.ptt) data.set('ptt', 'true');
  if (options.quotedId !== null) data.set('quotedMsgId', String(options.quotedId));
  return api.post<Sent>(`/messages/${ticketId}`, data);
}
