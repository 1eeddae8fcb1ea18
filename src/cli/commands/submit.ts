/** `routeplan submit`. OWNER: service/client helper. */
import type { Command } from 'commander';

export function registerSubmit(_program: Command): void {
  // not implemented yet
}
