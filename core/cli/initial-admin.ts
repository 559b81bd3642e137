import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { InitialAdmin } from '../boot.js';

export const INITIAL_ADMIN_FILE = 'data/initial-admin.txt';

/**
 * Tells how to sign in as the super admin just created. A generated password is shown once and
 * kept in data/initial-admin.txt, readable by the owner only; a configured one is never echoed.
 */
export function reportInitialAdmin(admin: InitialAdmin, dir: string, print: (line: string) => void): void {
  if (!admin.generated) {
    print(`super admin created: ${admin.email}; sign in with the password you set`);
    return;
  }
  const file = path.join(dir, INITIAL_ADMIN_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `email: ${admin.email}\npassword: ${admin.password}\n`, { mode: 0o600 });
  // mode only applies when the file is created; an older copy keeps its own permissions otherwise.
  chmodSync(file, 0o600);
  for (const line of [
    '',
    '  Super admin created',
    `    e-mail:   ${admin.email}`,
    `    password: ${admin.password}`,
    `  This password is shown once; it is also in ${file} (mode 0600).`,
    '  Sign in and change it, then delete that file.',
    '',
  ]) {
    print(line);
  }
}
