import { BaseModel } from '../../db/base.model.js';
import { User } from '../users/user.model.js';

export class TicketNote extends BaseModel {
  static override tableName = 'ticketNotes';

  companyId!: number;
  note!: string;
  userId!: number | null;
  /** The company API token that wrote it, and its name then (null otherwise). */
  apiTokenId!: number | null;
  apiTokenName!: string | null;
  contactId!: number;
  ticketId!: number;
  user?: User | null;

  static override get relationMappings() {
    return {
      user: { relation: BaseModel.BelongsToOneRelation, modelClass: User, join: { from: 'ticketNotes.userId', to: 'users.id' } },
    };
  }
}
