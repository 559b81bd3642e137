import { BaseModel } from '../../db/base.model.js';
import { Whatsapp } from '../whatsapp/whatsapp.model.js';

/** A name/value pair kept on a contact (the spec's extraInfo). */
export class ContactCustomField extends BaseModel {
  static override tableName = 'contactCustomFields';

  companyId!: number;
  contactId!: number;
  name!: string;
  value!: string;
}

export class Contact extends BaseModel {
  static override tableName = 'contacts';
  static override booleanFields = ['isGroup'];

  companyId!: number;
  uuid!: string;
  name!: string;
  /** Digits only: the canonical WhatsApp number (or a group's id). */
  number!: string;
  email!: string;
  profilePicUrl!: string;
  isGroup!: boolean;
  whatsappId!: number | null;
  extraInfo?: ContactCustomField[];
  whatsapp?: Whatsapp | null;

  static override get relationMappings() {
    return {
      extraInfo: {
        relation: BaseModel.HasManyRelation,
        modelClass: ContactCustomField,
        join: { from: 'contacts.id', to: 'contactCustomFields.contactId' },
      },
      whatsapp: {
        relation: BaseModel.BelongsToOneRelation,
        modelClass: Whatsapp,
        join: { from: 'contacts.whatsappId', to: 'whatsapps.id' },
      },
    };
  }
}
