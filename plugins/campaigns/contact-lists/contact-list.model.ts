import { BaseModel } from 'atende/plugin';

export class ContactList extends BaseModel {
  static override tableName = 'contact_lists';

  companyId!: number;
  name!: string;
  checkWaiting!: 'no_connection' | null;
}

export class ContactListItem extends BaseModel {
  static override tableName = 'contact_list_items';
  static override booleanFields = ['isWhatsappValid'];

  companyId!: number;
  contactListId!: number;
  name!: string;
  number!: string;
  email!: string;
  isWhatsappValid!: boolean | null;
  whatsappCheckedAt!: string | null;
}
