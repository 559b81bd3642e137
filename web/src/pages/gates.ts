import type { Plan, PlanFlag, SessionUser } from '../api/types';

export interface GateContext {
  user: SessionUser;
  plan: Plan | null;
  /** The local 'cshow' flag that reveals the campaign pages. */
  cshow: boolean;
}

export type Gate = (ctx: GateContext) => boolean;

export const isAdmin: Gate = ({ user }) => user.profile === 'admin' || user.super;
export const isSuper: Gate = ({ user }) => user.super;

/** Open when the company's plan has `flag` (a plan not loaded yet keeps the page closed). */
export function planAllows(flag: PlanFlag): Gate {
  return ({ plan }) => plan?.[flag] === true;
}
