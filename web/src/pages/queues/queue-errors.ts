import type { TFunction } from 'i18next';
import i18n from '../../i18n';
import { ApiError } from '../../api/client';
import { errorText } from '../../api/errors';

/** The option codes are this page's own; every other code reads as everywhere else. */
export function queueErrorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError && i18n.exists(`queues:errors.${err.code}`)) return t(`queues:errors.${err.code}`);
  return errorText(err, t);
}
