/** A promotion code as GET /api/promotions answers it (plugins/billing/promotions/promotion.model.ts). */
export interface PromotionRecord {
  id: number;
  code: string;
  kind: 'trialDays' | 'discount';
  amount: number;
  expiresAt: string | null;
  usesLeft: number;
  createdAt: string;
}

/** The server's bounds (plugins/billing/promotions/promotions.schema.ts). */
export const MAX_EXTRA_TRIAL_DAYS = 365;
export const MAX_DISCOUNT_PERCENT = 99;
export const CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Usable: uses left and not past its expiry day. */
export function promotionActive(p: PromotionRecord, today: string): boolean {
  return p.usesLeft > 0 && (p.expiresAt === null || p.expiresAt >= today);
}
