import type { Config } from '../config/config.schema.js';
import type { Provider } from '../contract/views.js';
import type { Database } from '../db/database.js';
import type { Logger } from '../logger.js';
import type { DriverFactory } from './driver.js';
import { createBaileysDriverFactory } from './baileys/index.js';
import type { Simulator } from './simulator/simulator.js';

// The providers a connection may name; 'beta' is the old product's name for Baileys.
export { PROVIDERS, type Provider } from '../contract/views.js';

/** Which driver factory serves each provider in this process. */
export class ProviderRegistry {
  private readonly factories = new Map<string, DriverFactory>();

  register(provider: Provider, factory: DriverFactory): void {
    this.factories.set(provider, factory);
  }

  factoryFor(provider: string): DriverFactory | undefined {
    return this.factories.get(provider);
  }

  has(provider: string): boolean {
    return this.factories.has(provider);
  }
}

/** The simulator is a stand-in for demos and tests: only `--demo`, ATENDE_SIMULATOR=1 or ATENDE_SIMULATOR_URL turn it on. */
export function simulatorEnabled(config: Config): boolean {
  return config.demo || config.simulator || config.simulatorUrl !== undefined;
}

export function createProviders(deps: { db: Database; log: Logger; simulator?: Simulator }): ProviderRegistry {
  const registry = new ProviderRegistry();
  registry.register('baileys', createBaileysDriverFactory({ db: deps.db, log: deps.log }));
  if (deps.simulator) registry.register('simulator', deps.simulator.factory);
  return registry;
}
