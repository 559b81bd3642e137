import type { Plan, PlanFlag, SessionUser } from '../api/types';

export interface GateContext {
  user: SessionUser;
  plan: Plan | null;
  /** The local 'cshow' flag that reveals the campaign pages. */
  cshow: boolean;
  /** The server plugins this installation turned on (GET /api/plugins/active). */
  plugins: readonly string[];
}

export type Gate = (ctx: GateContext) => boolean;

export const isAdmin: Gate = ({ user }) => user.profile === 'admin' || user.super;
export const isSuper: Gate = ({ user }) => user.super;

/** Open when the company's plan has `flag` (a plan not loaded yet keeps the page closed). */
export function planAllows(flag: PlanFlag): Gate {
  return ({ plan }) => plan?.[flag] === true;
}

/** Open when the server runs the plugin `name` turned on (billing with a provider…). */
export function pluginActive(name: string): Gate {
  return ({ plugins }) => plugins.includes(name);
}

/** Open when every one of `gates` is. */
export function allOf(...gates: Gate[]): Gate {
  return (ctx) => gates.every((gate) => gate(ctx));
}
