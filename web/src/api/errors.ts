import type { TFunction } from 'i18next';
import { ErrorCode, errorCodes } from '../../../core/contract/error-codes';
import { ApiError } from './client';

export { ErrorCode };

const known = new Set<string>(errorCodes);

/** The catalogue's text of one code, in the current language. */
export function errorCodeText(code: ErrorCode, t: TFunction): string {
  return t(`common:errors.${code}`);
}

/**
 * The spec's error display rule: a translated ERR_ code when we have one, else the server's text,
 * a plain string as is, else 'An error occurred!'.
 */
export function errorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    if (known.has(err.code)) return errorCodeText(err.code as ErrorCode, t);
    if (err.message) return err.message;
  }
  if (typeof err === 'string' && err) return err;
  if (err instanceof Error && err.message) return err.message;
  return t('common:toasts.unknownError');
}
