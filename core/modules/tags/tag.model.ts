import { BaseModel } from '../../db/base.model.js';

/** A label put on tickets; tags with `kanban` 1 are the kanban board's lanes. */
export class Tag extends BaseModel {
  static override tableName = 'tags';

  companyId!: number;
  name!: string;
  color!: string;
  /** 0 or 1, as the spec keeps it. */
  kanban!: number;
  /** Who created it; null once that user is gone. */
  userId!: number | null;
}
