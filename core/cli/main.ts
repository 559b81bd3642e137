import { Command, CommanderError } from 'commander';
import { packageVersion } from '../config/package-info.js';
import { ConfigError } from '../config/load-config.js';
import { AppError } from '../errors.js';
import { CliError, EXIT_USAGE } from './errors.js';
import type { CliContext } from './context.js';
import { initCommand } from './commands/init.js';
import { migrateCommand } from './commands/migrate.js';
import { serveCommand } from './commands/serve.js';
import { addTenantCommand } from './commands/add-tenant.js';
import { resetPasswordCommand } from './commands/reset-password.js';
import { simulateCommand } from './commands/simulate.js';
import { buildWebCommand } from './commands/build-web.js';

/** Messages may carry several lines (commander's suggestions, driver errors): the CLI reports one. */
function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, ' ');
}

function writeError(message: string): void {
  process.stderr.write(`atende: ${oneLine(message)}\n`);
}

/** A command and its subcommands (simulate scan, …) report errors the program's way. */
function inheritSettings(command: Command, parent: Command): Command {
  command.copyInheritedSettings(parent);
  for (const sub of command.commands) inheritSettings(sub, command);
  return command;
}

function buildProgram(ctx: CliContext): Command {
  const program = new Command('atende')
    .description('Atende: a self-hosted, multi-tenant WhatsApp customer-service inbox')
    .version(packageVersion, '--version', 'print the version')
    .helpOption('--help', 'show help')
    // Commands copy these settings (copyInheritedSettings below): errors come back here as exceptions.
    .exitOverride()
    .configureOutput({ outputError: (message) => writeError(message.replace(/^error: /, '')) });
  for (const make of [initCommand, migrateCommand, serveCommand, addTenantCommand, resetPasswordCommand, simulateCommand, buildWebCommand]) {
    program.addCommand(inheritSettings(make(ctx), program));
  }
  return program;
}

/** Turns any failure into one line on stderr and the exit code; the stack only with ATENDE_DEBUG=1. */
function report(err: unknown, debug: boolean): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : EXIT_USAGE; // commander printed it already
  const error = err instanceof Error ? err : new Error(String(err));
  if (error.name === 'ExitPromptError') {
    writeError('cancelled');
    return 130;
  }
  const expected = error instanceof CliError || error instanceof ConfigError || error instanceof AppError;
  // An unexpected error is a bug or an environment failure: say how to see where it came from.
  writeError(expected || debug ? error.message : `${error.message} (ATENDE_DEBUG=1 shows where)`);
  if (debug) process.stderr.write(`${error.stack ?? ''}\n`);
  return error instanceof CliError ? error.exitCode : 1;
}

// The entry point is the one place that reads the process: commands get env and TTY through ctx.
// Commands import the server, the container and the database drivers only when they run, so
// --help and --version answer at once.
const ctx: CliContext = {
  env: process.env,
  interactive: Boolean(process.stdin.isTTY),
  print: (line) => process.stdout.write(`${line}\n`),
};

let exitCode = 0;
try {
  await buildProgram(ctx).parseAsync(process.argv);
} catch (err) {
  exitCode = report(err, ctx.env.ATENDE_DEBUG === '1');
}
// Explicit: a command's leftover timers or pools must never keep a finished CLI alive.
process.exit(exitCode);
