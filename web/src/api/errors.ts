import type { TFunction } from 'i18next';
import { ErrorCode } from '../../../core/contract/error-codes';
import { ApiError } from './client';

export { ErrorCode };

/** The catalogue's text of one code, in the current language. */
export function errorCodeText(code: ErrorCode, t: TFunction): string {
  return t(`common:errors.${code}`);
}

/**
 * The spec's error display rule: a translated ERR_ code when we have one (the catalogue's, or a
 * plugin's own registered under common:errors), else the server's text, a plain string as is,
 * else 'An error occurred!'.
 */
export function errorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    const key = `common:errors.${err.code}`;
    const translated = t(key);
    if (translated !== key && translated !== `errors.${err.code}`) return translated;
    if (err.message) return err.message;
  }
  if (typeof err === 'string' && err) return err;
  if (err instanceof Error && err.message) return err.message;
  return t('common:toasts.unknownError');
}
