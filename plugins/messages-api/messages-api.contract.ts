/** What the messages API answers, shared by the server and the web page. */

/** GET /messages-api/tokens: which connections have a live token. */
export interface ApiTokenView {
  connectionId: number;
  createdAt: string;
  lastUsedAt: string | null;
}

/** POST /messages-api/tokens/:whatsappId: the token, shown this once. */
export interface NewApiToken extends ApiTokenView {
  token: string;
}

/** POST /api/messages/send. */
export interface SendAnswer {
  ticketId: number;
  messageIds: number[];
}
