/**
 * The one module a plugin's pages import, as `atende/web` (a Vite alias and a TypeScript path to
 * this file): everything else of web/src is the app's own and may change. Plugins bring react,
 * antd, dayjs, react-i18next and wouter themselves; this module gives what the app shares: the
 * API client and its contract, the session, the live socket, shared components, gates, i18n and
 * dates. What a plugin needs and does not find here is a gap of this module, mended here.
 */

// API client and the shared contract (types from the server's declarations)
export { api, ApiError, type RequestOptions } from './api/client';
export { ErrorCode, errorCodeText, errorText } from './api/errors';
export type * from './api/types';
export { PLAN_FLAGS } from './api/types';

// The app's query cache: a plugin's data lives there too, so a socket reconnect reloads it
export { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
export { queryKeys } from './api/query-keys';
export { useApiQuery, type ApiQueryOptions } from './hooks/use-api-query';
export { useLiveRecords, type LiveRecords, type LiveRecordsOptions } from './hooks/use-live-records';

// Session and live updates: useAuth() gives the user, the company's plan, the active plugins and the realtime client;
// useGateContext() what the gates read
export { useAuth, useGateContext, type SessionStatus } from './auth/auth-provider';
export type { RealtimeClient } from './realtime/realtime-client';
// The new-message chime, at the volume the user set in the top bar (silent at 0)
export { playChime } from './pages/tickets/message-alerts';

// Tickets: who sees one (the server's rule, for merging live ticket frames)
export { mayView as mayViewTicket } from './pages/tickets/ticket-rules';

// Pages, menu entries and their gates
export {
  definePluginWeb,
  type ComposerAction,
  type ComposerActionProps,
  type ConnectionSection,
  type ConnectionSectionProps,
  type CoreForm,
  type FormField,
  type FormFieldProps,
  type HeaderItem,
  type PageDefinition,
  type PluginWeb,
} from './pages/registry';
export { allOf, isAdmin, isSuper, planAllows, pluginActive, type Gate, type GateContext } from './pages/gates';

// Translations: each page registers its own namespace
export { registerTranslations, type Language, type LazyTranslations, type Translations } from './i18n';

// Shared components and hooks
export { AttachmentField, MAX_UPLOAD_BYTES, UPLOAD_ACCEPT, type AttachmentFieldProps } from './components/attachment-field';
export { BotSelect, type BotSelectProps } from './components/bot-select';
export { CardFields, cardOf, type CardFieldValues } from './components/card-fields';
export { maskCardNumber, maskDocument, maskExpiry, maskPostalCode } from './components/input-masks';
export { ColorChip, type ColorChipProps } from './components/color-chip';
export { ImportFileModal, type ImportFileModalProps, type ImportFileReport } from './components/import-file-modal';
export { InfiniteTable, type InfiniteTableProps } from './components/infinite-table';
export { ListHeader, type ListHeaderProps } from './components/list-header';
export { ModalFooter, type ModalFooterProps } from './components/modal-footer';
export { actionsColumn, RowActions, type RowAction, type RowActionsProps } from './components/row-actions';
export { useConfirmDelete, type ConfirmDeleteOptions } from './components/use-confirm-delete';
export { useContactSearch, type ContactChoice } from './components/use-contact-search';
export { useLoadOnOpen, type LoadOnOpenOptions } from './components/use-load-on-open';
export { downloadMedia, fetchMediaBlob, useMediaBlob, type MediaBlob } from './pages/tickets/conversation/use-media-blob';
export { TopBarList, TopBarPopover, topBarRowStyle, type TopBarPopoverProps } from './components/top-bar-popover';
export { useSubmitGuard, type SubmitGuard } from './components/use-submit-guard';
export { useSaveRecord, type PendingAttachment, type SaveOptions, type SaveRecord, type SaveRecordOptions } from './components/use-save-record';
export { CompanyZoneNote, ZonedTime } from './components/zoned-time';
export { nearBottom, usePagedList, type PagedList, type PagedListOptions } from './hooks/use-paged-list';

// Dates on the company's clock
export { companyTimezone, DATE_TIME_FORMAT, formatDate, wallClockOf, zoned, zonedDay, zonedText } from './layout/dates';
export { useCompanyClock, type CompanyClock } from './layout/use-company-clock';
