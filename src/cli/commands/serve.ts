/** `routeplan serve`. OWNER: service/client helper. */
import type { Command } from 'commander';

export function registerServe(_program: Command): void {
  // not implemented yet
}
