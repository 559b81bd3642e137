import { ErrorCode, routeId, validate, type AppRouter, type PluginApp } from 'atende/plugin';
import type { IntegrationsConfig } from './integrations-config.js';
import { integrationsOf } from './integrations-of.js';
import { createIntegrationSchema, listIntegrationsQuery, testSessionSchema, updateIntegrationSchema } from './integrations.schema.js';

const NOT_FOUND = ErrorCode.ERR_NO_INTEGRATION_FOUND;

/** /api/queueIntegration (spec §7): the host puts login and the useIntegrations check in front of each route. */
export function integrationsRoutes(router: AppRouter, app: PluginApp<IntegrationsConfig>): void {
  const { service, testSession } = integrationsOf(app);

  router.get('/queueIntegration', async (ctx) => {
    ctx.body = await service.list(ctx.state.user, validate(listIntegrationsQuery, ctx.query));
  });

  // A literal before /:id: the test button's one exchange with the configured service.
  router.post('/queueIntegration/testSession', async (ctx) => {
    ctx.body = await testSession.run(ctx.state.user, validate(testSessionSchema, ctx.request.body));
  });

  router.get('/queueIntegration/:id', async (ctx) => {
    ctx.body = await service.show(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });

  router.post('/queueIntegration', async (ctx) => {
    const input = validate(createIntegrationSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await service.create(ctx.state.user, input);
  });

  router.put('/queueIntegration/:id', async (ctx) => {
    const id = routeId(ctx.params.id, NOT_FOUND);
    ctx.body = await service.update(ctx.state.user, id, validate(updateIntegrationSchema, ctx.request.body));
  });

  router.delete('/queueIntegration/:id', async (ctx) => {
    ctx.body = await service.remove(ctx.state.user, routeId(ctx.params.id, NOT_FOUND));
  });
}
