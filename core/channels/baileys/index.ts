import type { Database } from '../../db/database.js';
import type { Logger } from '../../logger.js';
import type { DriverFactory } from '../driver.js';
import { BaileysDriver, DEFAULT_BAILEYS_OPTIONS, type BaileysDriverOptions } from './baileys-driver.js';

export interface BaileysDeps {
  db: Database;
  /** Parent of Baileys' own logger (kept at warn: the library is chatty). */
  log: Logger;
  /** Defaults suit production; tests shorten the backoff and point the socket elsewhere. */
  options?: Partial<BaileysDriverOptions>;
}

/** The `baileys` provider: one Baileys socket per connection, its state in the database. */
export function createBaileysDriverFactory(deps: BaileysDeps): DriverFactory {
  const options = { ...DEFAULT_BAILEYS_OPTIONS, ...deps.options };
  return (context) => new BaileysDriver(deps.db, deps.log, context, options);
}
