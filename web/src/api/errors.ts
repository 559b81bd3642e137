import type { TFunction } from 'i18next';
import { ApiError } from './client';

/**
 * The spec's error display rule: a translated ERR_ code when we have one, else the server's text,
 * a plain string as is, else 'An error occurred!'.
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
