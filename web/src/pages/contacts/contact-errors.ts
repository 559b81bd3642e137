import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import { errorText } from '../../api/errors';

/** The import's own error codes first (they are this page's), then the app's shared rule. */
export function contactErrorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) {
    const key = `contacts:errors.${err.code}`;
    const translated = t(key);
    if (translated !== key && translated !== `errors.${err.code}`) return translated;
  }
  return errorText(err, t);
}
