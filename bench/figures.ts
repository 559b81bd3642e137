/** What a bench returns: a label and its figure with what it is held to. */
export type Figures = Record<string, string>;

export function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

export function ms(n: number): string {
  return Number.isNaN(n) ? '—' : n < 10 ? n.toFixed(1) : String(Math.round(n));
}

export function rate(n: number): string {
  return n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : String(Math.round(n));
}

export function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** One load level of the old product (bench-dataset.md): req/s and p50 / p95 / p99 ms. */
export interface OldFigure {
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The existing product on the same dataset and machine (bench-dataset.md), at 1 and 10 clients. */
export const WHATICKET: Record<'openAdmin' | 'pendingAgent' | 'search' | 'messages' | 'login', Record<1 | 10, OldFigure>> = {
  openAdmin: { 1: { perSecond: 12.5, p50: 75, p95: 104, p99: 114 }, 10: { perSecond: 13.4, p50: 728, p95: 860, p99: 1137 } },
  pendingAgent: { 1: { perSecond: 11.0, p50: 91, p95: 104, p99: 118 }, 10: { perSecond: 15.5, p50: 630, p95: 728, p99: 856 } },
  search: { 1: { perSecond: 0.4, p50: 2455, p95: 2555, p99: 2573 }, 10: { perSecond: 0.39, p50: 23_700, p95: 28_200, p99: 30_100 } },
  messages: { 1: { perSecond: 42.2, p50: 23, p95: 34, p99: 42 }, 10: { perSecond: 51.4, p50: 194, p95: 229, p99: 247 } },
  login: { 1: { perSecond: 29.2, p50: 32, p95: 45, p99: 56 }, 10: { perSecond: 36.6, p50: 270, p95: 292, p99: 358 } },
};
/** Its inbound message through the full listener path, msg/s. */
export const WHATICKET_INBOUND = 2.9;

/** What DESIGN §10 (and issue 19) hold a request to; each part is checked where it is given. */
export interface Budget {
  /** Throughput at least this many times the old product's, at each load level. */
  ratio?: number;
  /** Latency ceilings (ms) at one client. */
  p50?: number;
  p95?: number;
}

export function describeBudget(budget: Budget): string {
  return [
    budget.ratio !== undefined && (budget.ratio < 1 ? `within ${Math.round(1 / budget.ratio)}× of it` : `≥ ${budget.ratio}×`),
    budget.p50 !== undefined && `p50 < ${budget.p50} ms at 1 client`,
    budget.p95 !== undefined && `p95 < ${budget.p95} ms at 1 client`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** "met" or what missed it, for one load level's figures; undefined when no part of the budget applies at that level. */
export function verdict(budget: Budget, clients: number, perSecond: number, p50: number, p95: number, old?: OldFigure): string | undefined {
  const checks: [boolean, boolean, string][] = [
    [budget.ratio !== undefined && old !== undefined, perSecond < (budget.ratio ?? 0) * (old?.perSecond ?? 0), 'throughput'],
    [clients === 1 && budget.p50 !== undefined, !(p50 < (budget.p50 ?? 0)), 'p50'],
    [clients === 1 && budget.p95 !== undefined, !(p95 < (budget.p95 ?? 0)), 'p95'],
  ];
  const applied = checks.filter(([applies]) => applies);
  if (applied.length === 0) return undefined;
  const missed = applied.filter(([, miss]) => miss).map(([, , name]) => name);
  return missed.length === 0 ? 'met' : `MISSED (${missed.join(', ')})`;
}
