/** The campaign settings API's answers, for the server and the plugin's pages. No imports. */

export interface CampaignVariable {
  key: string;
  value: string;
}

/** What the company chose (spec §3 Campaign settings, plus opt-out words and the daily cap). */
export interface CampaignSettingsValues {
  /** Seconds: each message waits a random 0..messageInterval s. */
  messageInterval: number;
  /** Messages after which the longer pause comes (0: never). */
  longerIntervalAfter: number;
  /** Seconds of the longer pause (0: none). */
  greaterInterval: number;
  variables: CampaignVariable[];
  /** The company's own opt-out words (upper case); the defaults are always on besides them. */
  optOutWords: string[];
  /** Campaign messages a connection sends per day at most. */
  dailyCap: number;
}

export type CampaignSettingKey = keyof CampaignSettingsValues;

/** GET /campaign-settings and POST's answer: the spec's array of key and value (values as JSON values). */
export type CampaignSettingsList = { [K in CampaignSettingKey]: { key: K; value: CampaignSettingsValues[K] } }[CampaignSettingKey][];

/** The frame of company-{id}-campaignSettings after a save. */
export interface CampaignSettingsEvent {
  action: 'update';
  settings: CampaignSettingsList;
}
