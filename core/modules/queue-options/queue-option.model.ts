import { BaseModel } from '../../db/base.model.js';

/** One entry of a queue's chatbot menu; `option` is the key the customer types to choose it. */
export class QueueOption extends BaseModel {
  static override tableName = 'queueOptions';

  companyId!: number;
  queueId!: number;
  /** null for the menu's first level. */
  parentId!: number | null;
  title!: string;
  message!: string;
  option!: string;
}
