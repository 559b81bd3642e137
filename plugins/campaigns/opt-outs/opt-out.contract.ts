/** The opt-out list's answers, for the server and the plugin's pages. No imports. */

export interface OptOutView {
  id: number;
  /** Canonical digits. */
  number: string;
  /** The word the customer answered with (as the company's list has it, upper case); null when an admin added the number. */
  word: string | null;
  /** The campaign the customer answered, or null (added by hand, or the campaign is gone). */
  campaign: { id: number; name: string } | null;
  createdAt: string;
}

/** GET /campaign-opt-outs: a page of 20, newest first. */
export interface OptOutPage {
  records: OptOutView[];
  count: number;
  hasMore: boolean;
}

/** The frames of company-{id}-campaignOptOut; a delete carries the entry as it was. */
export interface OptOutEvent {
  action: 'create' | 'delete';
  record: OptOutView;
}
