import { id, pageNumberQuery, required, z } from 'atende/plugin';

/** GET /chats: 30 conversations a page, the latest activity first. */
export const CHATS_PAGE_SIZE = 30;
/** GET /chats/:id/messages: 40 messages a page; page 1 is the newest. */
export const MESSAGES_PAGE_SIZE = 40;
export const TITLE_MAX = 100;
export const MESSAGE_MAX = 4000;
/** Members a chat may have besides its owner. */
export const MEMBERS_MAX = 200;

/** The spec's alerts (§5, Chat dialog), as the API's messages too. */
export const TITLE_REQUIRED = 'Por favor, preencha o título da conversa.';
export const USERS_REQUIRED = 'Por favor, selecione pelo menos um usuário.';

const title = z
  .string({ error: required(TITLE_REQUIRED) })
  .trim()
  .min(1, TITLE_REQUIRED)
  .max(TITLE_MAX, `At most ${TITLE_MAX} characters`);

/** Users as ids, or as the spec's objects ({ id, name }, only the id is read). */
const users = z
  .array(z.union([id, z.object({ id }).transform((user) => user.id)]), { error: required(USERS_REQUIRED) })
  .min(1, USERS_REQUIRED)
  .max(MEMBERS_MAX, `At most ${MEMBERS_MAX} users`)
  .transform((ids) => [...new Set(ids)]);

export const createChatSchema = z.object({ title, users });
export const updateChatSchema = z.object({ title: title.optional(), users: users.optional() });

/** The reader is the caller; a userId, if sent, must be theirs (the spec's body carries it). */
export const readChatSchema = z.object({ userId: id.optional() });

export const sendMessageSchema = z.object({
  message: z
    .string({ error: required('Message is required') })
    .trim()
    .min(1, 'Message is required')
    .max(MESSAGE_MAX, `At most ${MESSAGE_MAX} characters`),
});

export const pageQuery = z.object({ pageNumber: pageNumberQuery });

export type CreateChatInput = z.infer<typeof createChatSchema>;
export type UpdateChatInput = z.infer<typeof updateChatSchema>;
