import Router from '@koa/router';
import type { Container } from '../../container.js';
import { requireAuth, requireSuper } from '../../http/auth.middleware.js';
import type { AppContext, AppRouter, AppState } from '../../http/context.js';
import { routeId, validate } from '../../http/validate.js';
import { companyCreateSchema, companyUpdateSchema, schedulesSchema } from './companies.schema.js';
import { ErrorCode } from '../../contract/error-codes.js';
import type { CompanyCreatedView } from '../../contract/views.js';

/**
 * /api/companies: administration by super users, plus calls for a company's own users (its plan;
 * reading the company and editing its working hours for its admins).
 */
export function companiesRoutes(c: Container): AppRouter {
  const router = new Router<AppState>();
  const companies = c.services.companies;
  const auth = requireAuth(c);
  const superOnly = [auth, requireSuper()];

  const list: (ctx: AppContext) => Promise<void> = async (ctx) => {
    ctx.body = await companies.list();
  };
  router.get('/companies', ...superOnly, list);
  router.get('/companies/list', ...superOnly, list);

  router.get('/companies/listPlan/:companyId', auth, async (ctx) => {
    ctx.body = await companies.planOf(ctx.state.user, routeId(ctx.params.companyId, ErrorCode.ERR_NO_COMPANY_FOUND));
  });

  router.post('/companies', ...superOnly, async (ctx) => {
    const input = validate(companyCreateSchema, ctx.request.body);
    const created = await companies.createTenant(input);
    ctx.status = 201;
    ctx.body = {
      company: created.company,
      // The password travels back only when it was generated, so the super user can hand it over.
      admin: { ...created.admin, ...(created.generatedPassword ? { password: created.password } : {}) },
    } satisfies CompanyCreatedView;
  });

  // Super users read any company; a company's admins read their own (the working-hours tab).
  router.get('/companies/:id', auth, async (ctx) => {
    ctx.body = await companies.show(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_COMPANY_FOUND));
  });

  router.put('/companies/:id', ...superOnly, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_COMPANY_FOUND);
    ctx.body = await companies.update(id, validate(companyUpdateSchema, ctx.request.body));
  });

  router.delete('/companies/:id', ...superOnly, async (ctx) => {
    await companies.remove(ctx.state.user, routeId(ctx.params.id, ErrorCode.ERR_NO_COMPANY_FOUND));
    ctx.status = 204;
  });

  router.put('/companies/:id/schedules', auth, async (ctx) => {
    const id = routeId(ctx.params.id, ErrorCode.ERR_NO_COMPANY_FOUND);
    const { schedules } = validate(schedulesSchema, ctx.request.body);
    ctx.body = await companies.updateSchedules(ctx.state.user, id, schedules);
  });

  return router;
}
