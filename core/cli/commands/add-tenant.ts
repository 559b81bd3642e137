import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { CliError, usageError } from '../errors.js';
import { commandLogger, resolveDir, type CliContext } from '../context.js';
import { createMigrator } from '../migrations.js';
import { asPromptValidator, checkFlag, emailProblem, nameProblem, passwordProblem } from '../validate.js';

interface AddTenantOptions {
  dir?: string;
  name?: string;
  email?: string;
  password?: string;
  plan?: string;
  yes?: boolean;
}

export function addTenantCommand(ctx: CliContext): Command {
  return new Command('add-tenant')
    .description("create a company with its admin user, default settings and queue")
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .option('--name <name>', 'company name')
    .option('--email <email>', "e-mail of the company's admin (also the company's e-mail)")
    .option('--password <password>', "password of the company's admin")
    .option('--plan <name>', 'plan name (default: the default plan)')
    .option('--yes', 'never prompt; missing values are an error')
    .action((options: AddTenantOptions) => runAddTenant(options, ctx));
}

async function runAddTenant(options: AddTenantOptions, ctx: CliContext): Promise<void> {
  // Loaded by the commands that ask, not by the server's start.
  const { input, password: passwordPrompt } = await import('@inquirer/prompts');
  const ask = ctx.interactive && !options.yes;
  // Bad or missing flags are reported before the database is opened.
  for (const [flag, value] of [['--name', options.name], ['--email', options.email], ['--password', options.password]] as const) {
    if (value === undefined && !ask) throw usageError(`${flag} is required`);
  }
  if (options.name !== undefined) checkFlag('--name', options.name, nameProblem);
  if (options.email !== undefined) checkFlag('--email', options.email, emailProblem);
  if (options.password !== undefined) checkFlag('--password', options.password, passwordProblem);

  const config = loadConfig({ dir: resolveDir(options.dir), env: ctx.env, generateSecrets: false });
  const { createContainer } = await import('../../container.js');
  const { closeDatabase } = await import('../../db/database.js');
  const container = createContainer(config, commandLogger(config));
  try {
    const migrator = await createMigrator(container.db, config);
    const { pending } = await migrator.status();
    if (pending.length > 0) {
      throw new CliError(`the database schema is behind (${pending.length} pending); run \`atende migrate\` first`);
    }
    const name = options.name ?? (await input({ message: 'Company name', validate: asPromptValidator(nameProblem) }));
    const email = options.email ?? (await input({ message: 'Admin e-mail', validate: asPromptValidator(emailProblem) }));
    let password = options.password;
    if (password === undefined) {
      const answer = await passwordPrompt({
        message: 'Admin password (empty: generate one)',
        mask: '*',
        validate: (value) => value === '' || (passwordProblem(value) ?? true),
      });
      password = answer === '' ? undefined : answer;
    }

    const created = await container.services.companies.createTenant({ name: name.trim(), email, password, planName: options.plan });
    ctx.print(`company ${created.company.id} created: ${created.company.name}`);
    ctx.print(`admin: ${created.admin.email}`);
    if (created.generatedPassword) ctx.print(`password: ${created.password} (generated; shown once)`);
  } finally {
    await closeDatabase(container.db);
  }
}
