/**
 * Every error code the API answers (`{ error, message }`) and the web shows: the spec's catalogue
 * and the codes that follow its ERR_ style. A leaf module with no imports, so the server uses the
 * constants, the web imports them at no bundle cost beyond the strings, and the web's error texts
 * are keyed by `ErrorCode` (a code without a text in every language is a type error).
 */
const ERROR_CODES = [
  // Request and session
  'ERR_BAD_REQUEST',
  'ERR_VALIDATION',
  'ERR_METHOD_NOT_ALLOWED',
  'ERR_UNSUPPORTED_MEDIA_TYPE',
  'ERR_PAYLOAD_TOO_LARGE',
  'ERR_ROUTE_NOT_FOUND',
  'ERR_INTERNAL',
  'ERR_INVALID_CREDENTIALS',
  'ERR_SESSION_EXPIRED',
  'ERR_TOO_MANY_LOGIN_ATTEMPTS',
  'ERR_NO_PERMISSION',
  'ERR_UNKNOWN_FRAME',
  // Companies, plans and users
  'ERR_COMPANY_INACTIVE',
  'ERR_SUBSCRIPTION_EXPIRED',
  'ERR_NO_COMPANY_FOUND',
  'ERR_COMPANY_NAME_EXISTS',
  'ERR_CANNOT_DELETE_OWN_COMPANY',
  'ERR_NO_PLAN_FOUND',
  'ERR_PLAN_NAME_EXISTS',
  'ERR_PLAN_IN_USE',
  'ERR_PLAN_FEATURE_DISABLED',
  'ERR_PLAN_LIMIT_USERS',
  'ERR_PLAN_LIMIT_CONNECTIONS',
  'ERR_PLAN_LIMIT_QUEUES',
  'ERR_PLAN_LIMIT',
  'ERR_NO_USER_FOUND',
  'ERR_EMAIL_ALREADY_EXISTS',
  'ERR_USER_CREATION_DISABLED',
  'ERR_CANNOT_DELETE_SELF',
  'ERR_CANNOT_DEMOTE_SELF',
  'ERR_NO_SETTING_FOUND',
  // Connections
  'ERR_NO_WAPP_FOUND',
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_NO_OTHER_WHATSAPP',
  'ERR_WAPP_NAME_EXISTS',
  'ERR_WAPP_GREETING_REQUIRED',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_WAPP_CHECK_CONTACT',
  'ERR_WAPP_INVALID_CONTACT',
  'ERR_WAPP_DOWNLOAD_MEDIA',
  'ERR_WAPP_RATE_LIMITED',
  'ERR_SIMULATOR_DISABLED',
  'ERR_SIMULATOR_NO_QRCODE',
  // Contacts
  'ERR_NO_CONTACT_FOUND',
  'ERR_DUPLICATED_CONTACT',
  'ERR_IMPORT_FILE',
  'ERR_IMPORT_FILE_TYPE',
  'ERR_IMPORT_NO_HEADER',
  'ERR_IMPORT_TOO_MANY_ROWS',
  // Tickets and messages
  'ERR_NO_TICKET_FOUND',
  'ERR_OTHER_OPEN_TICKET',
  'ERR_TICKET_NOT_OPEN',
  'ERR_CREATING_TICKET',
  'ERR_NO_TICKET_NOTE_FOUND',
  'ERR_NO_MESSAGE_FOUND',
  'ERR_CREATING_MESSAGE',
  'ERR_SENDING_WAPP_MSG',
  'ERR_DELETE_WAPP_MSG',
  'ERR_EDIT_WAPP_MSG',
  'ERR_FETCH_WAPP_MSG',
  // Media
  'ERR_NO_MEDIA_FOUND',
  'ERR_MEDIA_TOO_LARGE',
  'ERR_MEDIA_TYPE_NOT_ALLOWED',
  'ERR_MEDIA_UPLOAD',
  // Queues, tags, quick messages, helps, dashboard
  'ERR_NO_QUEUE_FOUND',
  'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'ERR_NO_QUEUE_OPTION_FOUND',
  'ERR_QUEUE_OPTION_EXISTS',
  'ERR_NO_TAG_FOUND',
  'ERR_NO_QUICK_MESSAGE_FOUND',
  'ERR_NO_HELP_FOUND',
  'ERR_DASHBOARD_FILTER',
  // Schedules
  'ERR_NO_SCHEDULE_FOUND',
  'ERR_SCHEDULE_ALREADY_SENT',
  // Announcements
  'ERR_NO_ANNOUNCEMENT_FOUND',
  'ERR_ANNOUNCEMENT_NOT_AN_IMAGE',
  // Internal chat
  'ERR_NO_CHAT_FOUND',
  // File lists
  'ERR_NO_FILE_LIST_FOUND',
  // Campaigns
  'ERR_CAMPAIGNS_DISABLED',
  'ERR_NO_CONTACT_LIST_FOUND',
  'ERR_NO_CONTACT_LIST_ITEM_FOUND',
  'ERR_CONTACT_LIST_ITEM_EXISTS',
  'ERR_NO_CONNECTED_WAPP',
  'ERR_NO_CAMPAIGN_FOUND',
  'ERR_CAMPAIGN_STATUS',
  // Outgoing calls
  'ERR_URL_NOT_ALLOWED',
  // AI prompts
  'ERR_NO_PROMPT_FOUND',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** `ErrorCode.ERR_NO_TICKET_FOUND` is the string 'ERR_NO_TICKET_FOUND': searching a code finds its uses. */
export const ErrorCode = Object.freeze(Object.fromEntries(ERROR_CODES.map((code) => [code, code]))) as { readonly [C in ErrorCode]: C };

export const errorCodes: readonly ErrorCode[] = ERROR_CODES;
