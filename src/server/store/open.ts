/**
 * Opens the store the options ask for: PostgreSQL with --database, else the data directory.
 * PostgreSQL's module is imported only then, so that the default never loads pg or pg-boss.
 */
import type { ServeOptions } from '../serve-options.js';
import { dataDirStores } from './data-dir/stores.js';
import type { Stores } from './ports.js';

type Log = (event: Record<string, unknown>) => void;

export async function openStores(options: ServeOptions, log: Log): Promise<Stores> {
  if (options.database === undefined) return dataDirStores(options, log);
  const { databaseStores } = await import('./postgres/stores.js');
  return databaseStores(options.database, options, log);
}
