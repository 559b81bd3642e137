import { BaseModel } from 'atende/plugin';

export type PromotionKind = 'trialDays' | 'discount';

export class Promotion extends BaseModel {
  static override tableName = 'promotions';

  code!: string;
  kind!: PromotionKind;
  /** Days for trialDays, percent for discount. */
  amount!: number;
  /** YYYY-MM-DD, the last day it is accepted; null: no expiry. */
  expiresAt!: string | null;
  usesLeft!: number;
}

/** A promotion as the API answers it. */
export interface PromotionView {
  id: number;
  code: string;
  kind: PromotionKind;
  amount: number;
  expiresAt: string | null;
  usesLeft: number;
  createdAt: string;
}

export function toPromotionView(p: Promotion): PromotionView {
  return { id: p.id, code: p.code, kind: p.kind, amount: Number(p.amount), expiresAt: p.expiresAt, usesLeft: Number(p.usesLeft), createdAt: p.createdAt };
}
