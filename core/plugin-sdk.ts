/**
 * The plugin SDK, published as `atende/plugin`: the one module a plugin imports (DESIGN.md §7).
 * What it exports is the stable surface; anything a plugin needs beyond it is a gap to mend here.
 */
export { z } from 'zod';
export { definePlugin } from './plugins/define-plugin.js';
export type {
  PluginApp,
  PluginConfigSchema,
  PluginDefinition,
  PluginEventHandler,
  PluginEventHook,
  PluginEvents,
  PluginStep,
  PluginJoinRule,
  PluginRealtime,
  PluginServices,
} from './plugins/define-plugin.js';
export {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PlanFeatureDisabledError,
  PlanLimitError,
  TooManyAttemptsError,
  UnauthorizedError,
  ValidationError,
  routeId,
  type PluginErrorCode,
} from './plugins/plugin-errors.js';
export { ErrorCode } from './contract/error-codes.js';
export { AttemptLimiter, type AttemptLimits } from './auth/attempt-limiter.js';
export { booleanQuery, id, idParam, jsonIdsQuery, MAX_ID, pageNumberQuery, validate } from './http/validate.js';
export { Events, type DomainEvent, type EventName, type EventOf, type EventPayloads, type KnownEventName, type PayloadOf } from './events/event-bus.js';
export type { Change, TicketChanges, TicketPlace } from './events/catalogue.js';
export type { BotLinks, Turn } from './modules/pipeline/steps/conversation-steps.js';
export { botHolding, botLetsGo, type BotLink, type BotSessions } from './plugins/bot-hold.js';
export type { AppContext, AppRouter, AppState } from './http/context.js';
export type { DocMethod, RouteDoc } from './http/api-docs.js';
export type { JobData, JobHandler, JobOptions, JobScheduler } from './jobs/job-engine.js';
export { actorOf, isAdmin, type Actor, type AuthUser, type Profile } from './auth/auth-user.js';
export { API_RESOURCES, API_SCOPES, type ApiAccess, type ApiResource, type ApiScope } from './auth/api-scopes.js';
export type { BearerIdentity, BearerResolver } from './auth/bearer-tokens.js';
export type { Logger } from './logger.js';
export { isPostgres, type Database } from './db/database.js';
export { BaseModel } from './db/base.model.js';
export { likePattern } from './db/like-pattern.js';
export { required } from './modules/users/users.schema.js';
export { multipartBody, takeUpload, takeUploads, type MultipartOptions, type UploadedFile } from './modules/media/media-upload.js';
export { displayFileName, isStoredName, type MediaStorage } from './storage/media-storage.js';
export { outgoingMediaKind, type OutgoingMediaKind } from './modules/messages/outgoing-media.js';
export { SIGNATURE_HEADERS, signatureOf, signedHeaders } from './outgoing/signed-call.js';
export type { OutgoingMessage } from './modules/messages/outbound.service.js';
export { WhatsappNotConnectedError, WhatsappRateLimitedError, type DirectMessage } from './modules/whatsapp/direct-messages.js';
export type { DirectMessageStatus } from './events/catalogue.js';
export { renderTemplate, type TemplateContext } from './modules/tickets/templates.js';
export { nextDay, todayIn, zonedDayStart, zonedInstant } from './time/zoned-time.js';
export { contactEmail, contactName, contactNumber } from './modules/contacts/contacts.schema.js';
export { canonicalNumber } from './channels/phone.js';
export { TurnBatch } from './modules/pipeline/memo.js';
export { planContactsImport, readContactsFile, type ContactsFile, type ContactsFileRow, type ContactsImportPlan } from './plugins/contacts-file-sdk.js';
export type { PlanFlag } from './contract/views.js';
export type { SecretBox } from './auth/sealed-secrets.js';
export { MAIL_LANGUAGES, type MailLanguage, type MailMessage } from './mail/mail.service.js';
