import { validate, z, type AppContext, type AppRouter, type PluginApp } from 'atende/plugin';
import type { BillingConfig } from '../billing-config.js';
import { billingOf } from '../billing-of.js';
import { signupSchema } from './signup.schema.js';

const text = (max: number) => z.string().trim().max(max).default('');

/**
 * Public (no login): the signup page's calls (spec §7 Signup). Each verify call answers
 * `{ status: true }` when the value can still be used, `{ status: false }` when it is taken or invalid;
 * 120 checks per address in 15 minutes, so they cannot sweep the users' e-mails.
 */
export function signupRoutes(router: AppRouter, app: PluginApp<BillingConfig>): void {
  const signup = billingOf(app).signup;
  const answer = async (ctx: AppContext, check: () => Promise<boolean> | boolean) => {
    await signup.countCheck(ctx.ip);
    return { status: await check() };
  };

  router.get('/signup/status', (ctx) => {
    // card: whether the page has its Cartão step (a provider that takes cards).
    ctx.body = signup.enabled ? { enabled: true, card: signup.takesCards } : { enabled: false };
  });

  router.get('/companies/verify/name/query/params', async (ctx) => {
    const { name } = validate(z.object({ name: text(50) }), ctx.query);
    ctx.body = await answer(ctx, () => signup.nameFree(name));
  });

  router.get('/companies/verify/email/:email', async (ctx) => {
    ctx.body = await answer(ctx, () => signup.emailFree(ctx.params.email ?? ''));
  });

  router.get('/companies/verify/cpfcnpj/query/params', async (ctx) => {
    const { cpfcnpj } = validate(z.object({ cpfcnpj: text(20) }), ctx.query);
    ctx.body = await answer(ctx, async () => signupSchema.shape.cpf_cnpj.safeParse(cpfcnpj).success && (await signup.documentFree(cpfcnpj)));
  });

  router.get('/companies/verify/phone/:phone', async (ctx) => {
    ctx.body = await answer(ctx, () => signup.phoneFree(ctx.params.phone ?? ''));
  });

  router.get('/companies/promotion/code/exist/valid/:code', async (ctx) => {
    ctx.body = await answer(ctx, () => signup.promotionValid(ctx.params.code ?? ''));
  });

  router.post('/companies/cadastro', async (ctx) => {
    ctx.body = await signup.signUp(validate(signupSchema, ctx.request.body), ctx.ip);
    ctx.status = 201;
  });
}
