import { fork } from 'node:child_process';

/**
 * Runs one job in the load generator (bench/load-client.mjs), a process of its own, and resolves
 * with its figures once it has exited.
 */
export function runLoad<T>(job: Record<string, unknown>): Promise<T> {
  // No tsx loader in the child: plain node, as a client on another machine would be.
  const child = fork(new URL('./load-client.mjs', import.meta.url), [], { execArgv: [], stdio: 'inherit' });
  return new Promise<T>((resolve, reject) => {
    let answer: { type: string; result?: T; message?: string } | undefined;
    child.once('message', (m: typeof answer) => (answer = m));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (answer?.type === 'result') resolve(answer.result as T);
      else reject(new Error(`the load generator failed (exit ${code}): ${answer?.message ?? 'no answer'}`));
    });
    child.send(job);
  });
}
