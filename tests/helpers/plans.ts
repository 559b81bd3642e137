import type { InboxTenant } from './inbox.js';
import type { TestServer } from './server.js';

export interface PlanState {
  /** Flags of the catalogue (the spec's seven and the plugins'); those not named are on. */
  features?: Record<string, boolean>;
  /** Limits of the catalogue by name (`users`, a plugin's `echoesPerMonth`…); those not named keep their default. */
  limits?: Record<string, number>;
}

/** Also an InboxTenant: the inbox helpers (createConnection, customerWrites, createMember…) take it as it is. */
export interface TenantOnPlan extends InboxTenant {
  planId: number;
  email: string;
  password: string;
  /** The tenant admin's access token. */
  token: string;
}

let tenants = 0;

/**
 * A new company on a plan of its own, with its admin signed in: the flag states every plugin's tests
 * cover (flag on, flag off, at its limit) are one call each, e.g.
 * `withPlan(server, { features: { useSchedules: false } })` for the 403 ERR_PLAN_FEATURE_DISABLED.
 */
export async function withPlan(server: TestServer, state: PlanState = {}): Promise<TenantOnPlan> {
  const { plans, companies } = server.atende.container.services;
  tenants += 1;
  const name = `Plano ${process.pid}-${tenants}`;
  const { users = 5, connections = 1, queues = 1, ...limits } = state.limits ?? {};
  const plan = await plans.create({ name, users, connections, queues, value: 0, features: state.features ?? {}, limits });
  const slug = `plano${process.pid}n${tenants}`;
  const email = `admin@${slug}.test`;
  const password = 'plan-state-password';
  const { company, admin } = await companies.createTenant({ name: `Empresa ${name}`, email, password, planId: plan.id });
  const { token } = await server.login(email, password);
  return { companyId: company.id, planId: plan.id, email, password, token, admin: { id: admin.id, email, token }, slug };
}
