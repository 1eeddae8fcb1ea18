/** `routeplan poll`. OWNER: service/client helper. */
import type { Command } from 'commander';

export function registerPoll(_program: Command): void {
  // not implemented yet
}
