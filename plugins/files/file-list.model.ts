import { BaseModel } from 'atende/plugin';

export class FileList extends BaseModel {
  static override tableName = 'file_lists';

  companyId!: number;
  userId!: number | null;
  name!: string;
  message!: string;
}

export class FileListOption extends BaseModel {
  static override tableName = 'file_list_options';

  companyId!: number;
  fileListId!: number;
  name!: string;
  position!: number;
  /** Stored name in MediaStorage. */
  path!: string | null;
  mediaType!: string | null;
  mediaName!: string | null;
}
