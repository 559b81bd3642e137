import { register } from 'node:module';

/**
 * A module resolution hook, run on Node's loader thread: every `import … from 'atende/plugin'`
 * resolves to the SDK module the running core loaded itself, as if the core imported it.
 */
const hookSource = `
let sdk;
export function initialize(data) { sdk = data; }
export async function resolve(specifier, context, next) {
  if (specifier === 'atende/plugin') return next(sdk.specifier, { ...context, parentURL: sdk.parentURL });
  return next(specifier, context);
}`;

let registered = false;

/**
 * Makes a plugin's `atende/plugin` the core's own SDK, wherever the plugin lives: a plugin folder
 * with its own node_modules/atende (a copy for its types and tests) shares the running core's
 * module instances, so its errors are the core's AppError and its definePlugin the core's.
 */
export function resolvePluginSdkToCore(): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(hookSource)}`, {
    data: { specifier: '../plugin-sdk.js', parentURL: import.meta.url },
  });
}
