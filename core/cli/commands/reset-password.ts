import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { hashPassword, randomPassword } from '../../auth/password.js';
import { CliError, usageError } from '../errors.js';
import { commandLogger, resolveDir, type CliContext } from '../context.js';
import { createMigrator } from '../migrations.js';
import { checkFlag, emailProblem, passwordProblem } from '../validate.js';

interface ResetPasswordOptions {
  dir?: string;
  password?: string;
  yes?: boolean;
}

export function resetPasswordCommand(ctx: CliContext): Command {
  return new Command('reset-password')
    .description("set a user's password and end their sessions (for servers that cannot e-mail a recovery link)")
    .argument('<email>', "the user's e-mail")
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .option('--password <password>', 'the new password (asked on a terminal when missing)')
    .option('--yes', 'never prompt; --password is then required')
    .action((email: string, options: ResetPasswordOptions) => runResetPassword(email, options, ctx));
}

async function runResetPassword(rawEmail: string, options: ResetPasswordOptions, ctx: CliContext): Promise<void> {
  // Loaded by the commands that ask, not by the server's start.
  const { password: passwordPrompt } = await import('@inquirer/prompts');
  const ask = ctx.interactive && !options.yes;
  const email = checkFlag('<email>', rawEmail.trim().toLowerCase(), emailProblem);
  if (options.password === undefined && !ask) throw usageError('--password is required');
  if (options.password !== undefined) checkFlag('--password', options.password, passwordProblem);

  const config = loadConfig({ dir: resolveDir(options.dir), env: ctx.env, generateSecrets: false });
  const { createContainer } = await import('../../container.js');
  const { closeDatabase } = await import('../../db/database.js');
  const container = createContainer(config, commandLogger(config));
  try {
    const { pending } = await (await createMigrator(container.db, config)).status();
    if (pending.length > 0) {
      throw new CliError(`the database schema is behind (${pending.length} pending); run \`atende migrate\` first`);
    }
    const user = await container.services.users.findWithCompany({ email });
    if (!user) throw new CliError(`no user has the e-mail ${email}`);

    let password = options.password;
    if (password === undefined) {
      const answer = await passwordPrompt({
        message: `New password for ${email} (empty: generate one)`,
        mask: '*',
        validate: (value) => value === '' || (passwordProblem(value) ?? true),
      });
      password = answer === '' ? undefined : answer;
    }
    const generated = password === undefined;
    const chosen = password ?? randomPassword();
    await container.services.users.setPassword(user.id, await hashPassword(chosen));
    ctx.print(`password of ${email} changed; their sessions ended`);
    if (generated) ctx.print(`password: ${chosen} (generated; shown once)`);
  } finally {
    await closeDatabase(container.db);
  }
}
