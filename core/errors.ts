import { ErrorCode } from './contract/error-codes.js';

/**
 * One error style for the whole product: a code from the spec's catalogue (ERR_…), the HTTP status
 * that fits, and a message for people. The error middleware turns it into `{ error, message }`.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown, code: ErrorCode = ErrorCode.ERR_VALIDATION) {
    super(code, 400, message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(code: ErrorCode = ErrorCode.ERR_SESSION_EXPIRED, message = 'Session expired, please log in again') {
    super(code, 401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(code: ErrorCode = ErrorCode.ERR_NO_PERMISSION, message = 'You have no permission for this resource') {
    super(code, 403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(code: ErrorCode, message = 'Nothing was found with this ID') {
    super(code, 404, message);
  }
}

export class ConflictError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(code, 409, message);
  }
}

export class PlanFeatureDisabledError extends AppError {
  constructor(flag: string) {
    super(ErrorCode.ERR_PLAN_FEATURE_DISABLED, 403, `The company's plan does not include this feature (${flag})`);
  }
}

/** The spec's plan counts keep a code each; any other limit (declared by a plugin) shares ERR_PLAN_LIMIT. */
const COUNT_LIMIT_CODES: Partial<Record<string, ErrorCode>> = {
  users: ErrorCode.ERR_PLAN_LIMIT_USERS,
  connections: ErrorCode.ERR_PLAN_LIMIT_CONNECTIONS,
  queues: ErrorCode.ERR_PLAN_LIMIT_QUEUES,
};

/** One more would exceed the company's plan: 403, naming the limit (`details.limit`) and its value. */
export class PlanLimitError extends AppError {
  constructor(limit: string, max: number) {
    super(COUNT_LIMIT_CODES[limit] ?? ErrorCode.ERR_PLAN_LIMIT, 403, `The company's plan allows at most ${max} ${limit}`, { limit, max });
  }
}

/** The codes of a plan chosen below what the company already has, per count. */
const BELOW_USAGE_CODES: Record<'users' | 'connections' | 'queues', ErrorCode> = {
  users: ErrorCode.ERR_PLAN_BELOW_USERS,
  connections: ErrorCode.ERR_PLAN_BELOW_CONNECTIONS,
  queues: ErrorCode.ERR_PLAN_BELOW_QUEUES,
};

/** A plan change to a plan whose count is below what the company has: 409, naming the count, its limit and the company's use. */
export class PlanBelowUsageError extends AppError {
  constructor(resource: keyof typeof BELOW_USAGE_CODES, max: number, used: number) {
    super(BELOW_USAGE_CODES[resource], 409, `The chosen plan allows ${max} ${resource}; the company has ${used}`, { limit: resource, max, used });
  }
}

/** 429: the caller used up its attempts; the answer's Retry-After says when to come back. */
export class TooManyAttemptsError extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, 429, message);
  }
}
