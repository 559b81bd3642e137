import { z } from 'zod';
import { configEntries } from '../config/config.schema.js';
import { usageError } from './errors.js';

/**
 * Checks shared by flags and prompts: each answers what is wrong with a value, or undefined when
 * it is fine, so a flag turns it into a usage error and a prompt shows it and asks again.
 */
export type Check = (value: string) => string | undefined;

export const portProblem: Check = (value) => {
  const port = Number(value);
  return /^\d+$/.test(value) && port >= 1 && port <= 65535 ? undefined : `must be a port number from 1 to 65535 (got "${value}")`;
};

export const emailProblem: Check = (value) =>
  z.email().safeParse(value).success ? undefined : `"${value}" is not a valid e-mail address`;

// The same bounds as the adminPassword key of the config schema.
export const passwordProblem: Check = (value) => {
  if (value.length < 5) return 'must have at least 5 characters';
  if (value.length > 50) return 'must have at most 50 characters';
  return undefined;
};

export const httpUrlProblem: Check = (value) =>
  z.url({ protocol: /^https?$/ }).safeParse(value).success ? undefined : `"${value}" is not an http(s):// address`;

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//.test(value);
}

export const postgresUrlProblem: Check = (value) =>
  isPostgresUrl(value) ? undefined : 'must be a postgres://user:password@host:5432/database address';

const roles: readonly string[] = configEntries.role.schema.unwrap().options;

export const roleProblem: Check = (value) => (roles.includes(value) ? undefined : `must be one of ${roles.join(', ')} (got "${value}")`);

export const nameProblem: Check = (value) => (value.trim() ? undefined : 'must not be empty');

/** Validates a flag's value: a usage error naming the flag when it is wrong. */
export function checkFlag(flag: string, value: string, check: Check): string {
  const problem = check(value);
  if (problem) throw usageError(`${flag} ${problem}`);
  return value;
}

/** The same check shaped as an @inquirer/prompts `validate` callback. */
export function asPromptValidator(check: Check): (value: string) => string | true {
  return (value) => check(value) ?? true;
}
