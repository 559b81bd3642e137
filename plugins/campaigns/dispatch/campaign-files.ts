import type { PluginApp } from 'atende/plugin';
import type { Campaign } from '../campaigns/campaign.model.js';

/** A file of the campaign's file list, as the files plugin reads it. */
export interface CampaignFile {
  caption: string;
  /** Stored name in the company's media storage. */
  path: string;
  name: string;
  mime: string;
}

/** What the files plugin provides that a campaign uses (plugins import nothing of each other). */
interface FileListReader {
  read(companyId: number, fileListId: number): Promise<{ message: string; files: CampaignFile[] } | undefined>;
}

/** The campaign's file list, sent before its message; none when it has none, the list is gone or the files plugin is absent. */
export async function campaignFiles(app: PluginApp, campaign: Campaign): Promise<CampaignFile[]> {
  if (!campaign.fileListId) return [];
  const list = await app.plugin<FileListReader>('files')?.read(campaign.companyId, campaign.fileListId);
  return list?.files ?? [];
}
