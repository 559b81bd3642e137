import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { resolveDir, type CliContext } from '../context.js';

interface BuildWebOptions {
  dir?: string;
}

export function buildWebCommand(ctx: CliContext): Command {
  return new Command('build-web')
    .description("build the admin with every installed plugin's pages (built-in and the config's plugins) into data/web, which serve then serves")
    .option('--dir <path>', 'folder holding atende.config.json and data/ (default: current folder)')
    .action((options: BuildWebOptions) => runBuildWeb(options, ctx));
}

async function runBuildWeb(options: BuildWebOptions, ctx: CliContext): Promise<void> {
  const config = loadConfig({ dir: resolveDir(options.dir), env: ctx.env, generateSecrets: false });
  const { buildWeb } = await import('../../web-build/build-web.js');
  ctx.print('building the admin…');
  const { plugins } = await buildWeb(config);
  ctx.print(`built ${config.webDir} with the pages of ${plugins.length === 0 ? 'no plugin' : plugins.join(', ')}`);
}
