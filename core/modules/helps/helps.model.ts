import { BaseModel } from '../../db/base.model.js';

/** A help video: platform content kept by super users, shown to every company (no companyId). */
export class Help extends BaseModel {
  static override tableName = 'helps';

  title!: string;
  description!: string;
  /** The YouTube video code (the part after v=). */
  video!: string;
  link!: string;
}
