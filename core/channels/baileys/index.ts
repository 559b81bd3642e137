import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { ChannelDriver, DriverContext, DriverFactory } from '../driver.js';
import type { BaileysDriverOptions } from './baileys-driver.js';

export interface BaileysDeps {
  db: Database;
  /** Parent of Baileys' own logger (kept at warn: the library is chatty). */
  log: Logger;
  /** Defaults suit production; tests shorten the backoff and point the socket elsewhere. */
  options?: Partial<BaileysDriverOptions>;
}

/**
 * A driver whose Baileys module is imported on first use: the library costs about 60 MB of
 * memory, which a server without a Baileys connection (demo, tests, idle) never pays.
 */
class LazyBaileysDriver implements ChannelDriver {
  private loaded: Promise<ChannelDriver> | undefined;

  constructor(
    private readonly deps: BaileysDeps,
    private readonly context: DriverContext,
  ) {}

  private driver(): Promise<ChannelDriver> {
    this.loaded ??= import('./baileys-driver.js').then(
      ({ BaileysDriver, DEFAULT_BAILEYS_OPTIONS }) =>
        new BaileysDriver(this.deps.db, this.deps.log, this.context, { ...DEFAULT_BAILEYS_OPTIONS, ...this.deps.options }),
    );
    return this.loaded;
  }

  async start(): Promise<void> {
    await (await this.driver()).start();
  }

  async stop(): Promise<void> {
    // Never started: nothing to close, and no reason to load the library.
    if (this.loaded) await (await this.loaded).stop();
  }

  async logout(): Promise<void> {
    await (await this.driver()).logout();
  }

  async sendText(...args: Parameters<ChannelDriver['sendText']>) {
    return (await this.driver()).sendText(...args);
  }

  async sendMedia(...args: Parameters<ChannelDriver['sendMedia']>) {
    return (await this.driver()).sendMedia(...args);
  }

  async sendLocation(...args: Parameters<ChannelDriver['sendLocation']>) {
    return (await this.driver()).sendLocation(...args);
  }

  async delete(...args: Parameters<ChannelDriver['delete']>) {
    return (await this.driver()).delete(...args);
  }

  async edit(...args: Parameters<ChannelDriver['edit']>) {
    return (await this.driver()).edit(...args);
  }

  async markRead(...args: Parameters<ChannelDriver['markRead']>) {
    return (await this.driver()).markRead(...args);
  }

  async checkNumber(...args: Parameters<ChannelDriver['checkNumber']>) {
    return (await this.driver()).checkNumber(...args);
  }

  async profilePicture(...args: Parameters<ChannelDriver['profilePicture']>) {
    return (await this.driver()).profilePicture(...args);
  }
}

/** The `baileys` provider: one Baileys socket per connection, its state in the database. */
export function createBaileysDriverFactory(deps: BaileysDeps): DriverFactory {
  return (context) => new LazyBaileysDriver(deps, context);
}
