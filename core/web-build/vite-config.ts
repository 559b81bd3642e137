import { existsSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { InlineConfig, Plugin } from 'vite';
import { packageRoot } from '../config/package-info.js';
import { precompress } from './precompress.js';

/** The module web/src/pages/registry.tsx imports: every plugin's web entry, in the host's plugin order. */
export const PLUGIN_WEBS_MODULE = 'virtual:atende/plugin-webs';

/**
 * What a plugin's pages share with the app: one copy each, the app's, even when the plugin's
 * folder has its own node_modules (two Reacts break hooks; two antd break the theme).
 */
const SHARED_PACKAGES = ['react', 'react-dom', 'antd', '@ant-design/icons', 'i18next', 'react-i18next', 'wouter', 'dayjs'];

/** The entry of a plugin's web folder: index.tsx, as the plugin guide says. */
export function pluginWebEntry(webDir: string): string {
  return path.join(webDir, 'index.tsx');
}

/** The built-in plugins' web entries, sorted by plugin name as the host loads them: `npm run build` and `npm run dev`. */
export function builtinPluginWebs(): string[] {
  const plugins = path.join(packageRoot, 'plugins');
  return readdirSync(plugins, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => pluginWebEntry(path.join(plugins, name, 'web')))
    .filter((entry) => existsSync(entry));
}

function pluginWebsModule(entries: string[]): Plugin {
  const resolved = `\0${PLUGIN_WEBS_MODULE}`;
  return {
    name: 'atende-plugin-webs',
    resolveId: (id) => (id === PLUGIN_WEBS_MODULE ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      const imports = entries.map((entry, i) => `import web${i} from ${JSON.stringify(entry)};`);
      return `${imports.join('\n')}\nexport default [${entries.map((_, i) => `web${i}`).join(', ')}];\n`;
    },
  };
}

/**
 * Where `import(`./i18n/${language}.ts`)` is expanded into one chunk per file: the app and every
 * plugin's web folder. Vite skips node_modules by default, where an npm plugin's pages live.
 */
function dynamicImportFolders(pluginWebs: string[]): RegExp[] {
  const folders = [path.join(packageRoot, 'web'), ...pluginWebs.map((entry) => realpathSync(path.dirname(entry)))];
  return folders.map((folder) => new RegExp(`^${(folder + path.sep).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

export interface WebBuildOptions {
  /** The plugins' web entries (index.tsx files), in order. */
  pluginWebs: string[];
  /** Where the built app goes. */
  outDir: string;
}

/** The Vite config of the admin: the repository's vite.config.ts and `atende build-web` both start from it. */
export async function webViteConfig({ pluginWebs, outDir }: WebBuildOptions): Promise<InlineConfig> {
  const { default: react } = await import('@vitejs/plugin-react');
  return {
    root: path.join(packageRoot, 'web'),
    plugins: [react(), pluginWebsModule(pluginWebs), precompress(outDir)],
    resolve: {
      // The module plugin pages import (web/src/sdk.ts), by a name that does not depend on where the plugin lives.
      alias: { 'atende/web': path.join(packageRoot, 'web/src/sdk.ts') },
      dedupe: SHARED_PACKAGES,
    },
    build: {
      outDir,
      emptyOutDir: true,
      chunkSizeWarningLimit: 1500,
      dynamicImportVarsOptions: { include: dynamicImportFolders(pluginWebs), exclude: [] },
      rollupOptions: {
        // The SDK only re-exports: a plugin's menu entry importing a gate from it must not load every
        // shared component into the first page load.
        treeshake: { moduleSideEffects: (id: string) => !id.endsWith('/web/src/sdk.ts') },
        // A chunk that only shares code between others takes its name from a folder (antd's `es`),
        // which could pass for a language's strings: shared chunks say so in their name.
        output: { chunkFileNames: (chunk: { isDynamicEntry: boolean; isEntry: boolean }) => (chunk.isDynamicEntry || chunk.isEntry ? 'assets/[name]-[hash].js' : 'assets/shared-[name]-[hash].js') },
      },
    },
  };
}
