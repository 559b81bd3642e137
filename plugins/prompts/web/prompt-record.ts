import type { PromptView } from '../prompt.contract';

/** A prompt as the API answers it (keys masked). */
export type PromptRecord = PromptView;

export const promptChannel = (companyId: number) => `company-${companyId}-prompt`;

/** The server's order: by name. */
export const byName = (a: PromptRecord, b: PromptRecord) => a.name.localeCompare(b.name) || a.id - b.id;
