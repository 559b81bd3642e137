import type { ErrorCode } from '../contract/error-codes.js';
import * as core from '../errors.js';
import { routeId as coreRouteId } from '../http/validate.js';

/**
 * An error code as a plugin may throw it: one of the core's catalogue or the plugin's own, in the
 * same ERR_ style. The core keeps its strict catalogue; only the SDK's view of the classes is wider.
 */
export type PluginErrorCode = ErrorCode | (string & {});

/** An error instance as a plugin sees it: its code may be the plugin's own. */
type Widened<E extends core.AppError> = Omit<E, 'code'> & { readonly code: PluginErrorCode };

/*
 * The core's own classes (so `instanceof` holds on both sides and the error middleware answers
 * them with their status and code), typed with constructors that also take a plugin's codes.
 */
export const AppError = core.AppError as unknown as new (code: PluginErrorCode, status: number, message: string, details?: unknown) => Widened<core.AppError>;
export type AppError = Widened<core.AppError>;

export const ValidationError = core.ValidationError as unknown as new (message: string, details?: unknown, code?: PluginErrorCode) => Widened<core.ValidationError>;
export type ValidationError = Widened<core.ValidationError>;

export const UnauthorizedError = core.UnauthorizedError as unknown as new (code?: PluginErrorCode, message?: string) => Widened<core.UnauthorizedError>;
export type UnauthorizedError = Widened<core.UnauthorizedError>;

export const ForbiddenError = core.ForbiddenError as unknown as new (code?: PluginErrorCode, message?: string) => Widened<core.ForbiddenError>;
export type ForbiddenError = Widened<core.ForbiddenError>;

export const NotFoundError = core.NotFoundError as unknown as new (code: PluginErrorCode, message?: string) => Widened<core.NotFoundError>;
export type NotFoundError = Widened<core.NotFoundError>;

export const ConflictError = core.ConflictError as unknown as new (code: PluginErrorCode, message: string) => Widened<core.ConflictError>;
export type ConflictError = Widened<core.ConflictError>;

export const TooManyAttemptsError = core.TooManyAttemptsError as unknown as new (code: PluginErrorCode, message: string, retryAfterSeconds: number) => Widened<core.TooManyAttemptsError>;
export type TooManyAttemptsError = Widened<core.TooManyAttemptsError>;

export { PlanFeatureDisabledError, PlanLimitError } from '../errors.js';

/** `routeId(ctx.params.id, code)`: the not-found code may be the plugin's own (ERR_NO_ECHO_FOUND, say). */
export const routeId = coreRouteId as (raw: string | undefined, notFoundCode: PluginErrorCode) => number;
