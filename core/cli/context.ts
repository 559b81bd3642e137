import path from 'node:path';
import type { Config } from '../config/config.schema.js';
import { createLogger, type Logger } from '../logger.js';

/** What every command receives from the entry point instead of reaching for process globals. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  /** A person can answer prompts: stdin is a terminal. */
  interactive: boolean;
  /** Progress and results: plain lines on stdout, apart from the logs. */
  print(line: string): void;
}

export function resolveDir(dir: string | undefined): string {
  return path.resolve(dir ?? '.');
}

/**
 * Logger for the one-shot commands (init, migrate, add-tenant): their plain lines tell the story,
 * so routine info logs stay quiet unless debug or trace was asked for.
 */
export function commandLogger(config: Config): Logger {
  return createLogger(config.logLevel === 'debug' || config.logLevel === 'trace' ? config.logLevel : 'warn');
}
