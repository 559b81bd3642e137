import { BaseModel } from '../../db/base.model.js';

/** A canned answer the composer offers after '/': a user's own, or shared with the company (geral). */
export class QuickMessage extends BaseModel {
  static override tableName = 'quick_messages';
  static override booleanFields = ['geral'];

  companyId!: number;
  /** The author; null once that user is gone (the reply stays with the company's admins). */
  userId!: number | null;
  shortcode!: string;
  message!: string;
  geral!: boolean;
  /** The stored file name under the company's media folder. */
  mediaPath!: string | null;
  /** The attachment's name as the user uploaded it. */
  mediaName!: string | null;
}
