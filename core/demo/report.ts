import type { Demo } from './demo.js';

/** The block `serve` prints: the new credentials once, afterwards where they are kept. */
export function reportDemo(demo: Demo, print: (line: string) => void): void {
  if (!demo.created) {
    print(`demo company "${demo.company}": its users' passwords are in ${demo.file}`);
    return;
  }
  print('');
  print(`  Demo company "${demo.company}" created, with a simulated WhatsApp connection`);
  for (const user of demo.users) print(`    ${user.role.padEnd(6)} ${user.email.padEnd(28)} password: ${user.password}`);
  print(`  These passwords are also in ${demo.file} (mode 0600).`);
  if (demo.connectionId !== undefined) {
    print(`  Write as a customer: npx atende simulate message --connection ${demo.connectionId} --from 5511912345678 --name Maria --body "Olá"`);
  }
  print('');
}
