// Builds dist/ when it is missing or older than what it is built from (npm start, npm run bench).
// A cheap mtime walk: no hashing, and no build at all when nothing changed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const skipped = new Set(['node_modules', 'dist']);

/** `npm run build` makes both: the server (tsc) and the web app (vite), each with its own sources. */
const outputs = [
  {
    file: 'dist/core/cli/main.js',
    dirs: ['core', 'migrations', 'plugins'],
    // A plugin's web/ folder belongs to the web app, not to the server build.
    include: (file, dir) => file.endsWith('.ts') && !dir.split(path.sep).includes('web'),
  },
  {
    file: 'dist/web/index.html',
    dirs: ['web', ...pluginWebDirs()],
    include: () => true,
  },
];

function pluginWebDirs() {
  const plugins = path.join(root, 'plugins');
  if (!existsSync(plugins)) return [];
  return readdirSync(plugins, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join('plugins', entry.name, 'web'));
}

/** The newest mtime of an included file under dir, or 0 when there is none. */
function newest(dir, include) {
  let latest = 0;
  if (!existsSync(dir)) return latest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) latest = Math.max(latest, newest(full, include));
    } else if (include(entry.name, path.relative(root, dir))) {
      latest = Math.max(latest, statSync(full).mtimeMs);
    }
  }
  return latest;
}

function isStale({ file, dirs, include }) {
  const output = path.join(root, file);
  if (!existsSync(output)) return true;
  const builtAt = statSync(output).mtimeMs;
  return dirs.some((dir) => newest(path.join(root, dir), include) > builtAt);
}

function run(command, args) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status;
}

if (outputs.some(isStale)) {
  console.log('building…');
  const status = run('npm', ['run', '--silent', 'build']);
  if (status !== 0) {
    // tsc emits even when it reports errors: date the outputs back so the next run builds again.
    for (const { file } of outputs) {
      if (existsSync(path.join(root, file))) utimesSync(path.join(root, file), 0, 0);
    }
    console.error('atende: the build failed; see the errors above');
    process.exit(status ?? 1);
  }
}

// The admin `atende build-web` made with the installed plugins' pages (data/web, served instead of
// dist/web): rebuilt when the app it was made from is newer, so an update never leaves it behind.
const installedWeb = path.join(root, 'data/web/index.html');
if (existsSync(installedWeb) && statSync(installedWeb).mtimeMs < statSync(path.join(root, 'dist/web/index.html')).mtimeMs) {
  const status = run('node', ['bin/atende.js', 'build-web']);
  if (status !== 0) process.exit(status ?? 1);
}
