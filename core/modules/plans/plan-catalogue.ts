import { PLAN_FLAGS, type PlanCatalogueView } from '../../contract/views.js';

/** A label in the web's languages; pt-BR is the default and stands in for a missing one. */
export interface PlanLabel {
  'pt-BR': string;
  en?: string;
  es?: string;
}

/** A limit a plugin declares: its label and the value of a plan that does not set it. */
export interface PlanLimitDeclaration {
  label: PlanLabel;
  default: number;
}


/** The spec's seven flags, known to the core whatever plugins are installed. */
const SPEC_FLAG_LABELS: Record<(typeof PLAN_FLAGS)[number], PlanLabel> = {
  useCampaigns: { 'pt-BR': 'Campanhas', en: 'Campaigns', es: 'Campañas' },
  useKanban: { 'pt-BR': 'Kanban', en: 'Kanban', es: 'Kanban' },
  useOpenAi: { 'pt-BR': 'Open.Ai', en: 'Open.Ai', es: 'Open.Ai' },
  useIntegrations: { 'pt-BR': 'Integrações', en: 'Integrations', es: 'Integraciones' },
  useSchedules: { 'pt-BR': 'Agendamentos', en: 'Schedules', es: 'Agendamientos' },
  useInternalChat: { 'pt-BR': 'Chat Interno', en: 'Internal chat', es: 'Chat interno' },
  useExternalApi: { 'pt-BR': 'API Externa', en: 'External API', es: 'API externa' },
};

/** Keys a flag or limit may not take: the plan's own columns. */
const PLAN_COLUMNS = new Set(['id', 'name', 'users', 'connections', 'queues', 'value', 'features', 'limits', 'createdAt', 'updatedAt']);

/** Flag and limit keys: camelCase, like the spec's flags. */
export const FEATURE_KEY = /^[a-z][A-Za-z0-9]{0,99}$/;

function complete(label: PlanLabel): Required<PlanLabel> {
  return { 'pt-BR': label['pt-BR'], en: label.en ?? label['pt-BR'], es: label.es ?? label['pt-BR'] };
}

/**
 * The plan features and limits of this installation: the spec's flags, then what each plugin
 * declares as the host loads it. Plans store values only for these keys; the rest of a plan's
 * rows (a removed plugin's) stay in the database untouched and unlisted.
 */
export class PlanCatalogue {
  private readonly flags = new Map<string, { label: PlanLabel; plugin: string | null }>();
  private readonly limitsByKey = new Map<string, PlanLimitDeclaration & { plugin: string }>();

  constructor() {
    for (const flag of PLAN_FLAGS) this.flags.set(flag, { label: SPEC_FLAG_LABELS[flag], plugin: null });
  }

  /**
   * A plugin's flag and limits. A flag may be shared (two plugins behind useKanban, say): the first
   * label stays. A limit belongs to one plugin, and no key may be both a flag and a limit.
   */
  declare(plugin: string, flag: { key: string; label?: PlanLabel } | undefined, limits: Record<string, PlanLimitDeclaration> = {}): void {
    if (flag) this.assertFree(plugin, flag.key, 'flag');
    for (const key of Object.keys(limits)) this.assertFree(plugin, key, 'limit');
    if (flag && !this.flags.has(flag.key)) this.flags.set(flag.key, { label: flag.label ?? { 'pt-BR': flag.key }, plugin });
    for (const [key, limit] of Object.entries(limits)) this.limitsByKey.set(key, { ...limit, plugin });
  }

  hasFlag(key: string): boolean {
    return this.flags.has(key);
  }

  /** The declared default of a limit, undefined for an unknown key. */
  limitDefault(key: string): number | undefined {
    return this.limitsByKey.get(key)?.default;
  }

  get flagKeys(): string[] {
    return [...this.flags.keys()];
  }

  get limitKeys(): string[] {
    return [...this.limitsByKey.keys()];
  }

  view(): PlanCatalogueView {
    return {
      features: [...this.flags].map(([key, { label, plugin }]) => ({ key, label: complete(label), plugin })),
      limits: [...this.limitsByKey].map(([key, limit]) => ({ key, label: complete(limit.label), default: limit.default, plugin: limit.plugin })),
    };
  }

  private assertFree(plugin: string, key: string, kind: 'flag' | 'limit'): void {
    const taken =
      PLAN_COLUMNS.has(key) ||
      (kind === 'flag' ? this.limitsByKey.has(key) : this.flags.has(key)) ||
      (kind === 'limit' && this.limitsByKey.has(key));
    if (taken) throw new Error(`plugin ${plugin}: the plan ${kind} "${key}" is already a plan field, flag or limit`);
  }
}
