#!/usr/bin/env node
// Development: the API from the TypeScript sources (tsx, port 8080) and Vite's dev server
// (http://localhost:5173) proxying /api and /ws to it. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  ['api', 'npx', ['tsx', 'core/cli/main.ts', 'serve', ...process.argv.slice(2)]],
  ['web', 'npx', ['vite']],
].map(([name, command, args]) => {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = (chunk) => chunk.toString().split('\n').filter(Boolean).map((l) => `[${name}] ${l}`).join('\n') + '\n';
  child.stdout.on('data', (c) => process.stdout.write(prefix(c)));
  child.stderr.on('data', (c) => process.stderr.write(prefix(c)));
  child.on('exit', (code) => {
    console.log(`[${name}] exited (${code})`);
    stop();
  });
  return child;
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
