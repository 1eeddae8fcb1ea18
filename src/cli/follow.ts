/**
 * What the client commands do with an action the service accepted (`submit` of a one-off problem,
 * `optimize` of a project): print its id and leave it, or, with `--wait`, follow it to its end and
 * print its plan as `solve` does. One place, so both end with the same output and exit codes (a
 * failed action exits 3, a timeout too).
 */
import type { ServiceClient } from '../client/http.js';
import { planOf, waitForAction, type ActionAck } from '../client/service.js';
import { printPlan } from './present.js';

export interface FollowOptions {
  wait: boolean;
  json: boolean;
  color: boolean;
  timeoutMs: number;
  /** A progress note on stderr (none with --quiet). */
  note: (message: string) => void;
}

/** A client command's progress note on stderr: nothing under --quiet. */
export function noteUnlessQuiet(quiet: boolean | undefined): (message: string) => void {
  return (message) => {
    if (!quiet) process.stderr.write(`routeplan: ${message}\n`);
  };
}

/** How `--wait`, `--json` and `--quiet` follow an accepted action. */
export function followOptionsOf(
  flags: { wait?: boolean; json?: boolean; quiet?: boolean },
  color: boolean,
  timeoutMs: number,
): FollowOptions {
  return { wait: flags.wait === true, json: flags.json === true, color, timeoutMs, note: noteUnlessQuiet(flags.quiet) };
}

export async function followAction(client: ServiceClient, ack: ActionAck, options: FollowOptions): Promise<void> {
  if (!options.wait) {
    process.stdout.write(options.json ? `${JSON.stringify(ack, null, 2)}\n` : `${ack.actionUuid}\n`);
    options.note(`submitted; follow it with "routeplan poll ${ack.actionUuid}"`);
    return;
  }
  options.note(`submitted as ${ack.actionUuid}; waiting for the plan`);
  const action = await waitForAction(client, ack.actionUuid, { timeoutMs: options.timeoutMs });
  await printPlan(planOf(action), { json: options.json, color: options.color });
}
