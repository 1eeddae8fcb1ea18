/** `routeplan poll <actionUuid>`: follow a remote action to its end and print its plan. */
import type { Command } from 'commander';
import { connect, parseTimeoutSeconds, type ConnectionFlags } from '../../client/connection.js';
import { getAction, isFinalStatus, planOf, waitForAction } from '../../client/service.js';
import { ExitCode, InputError } from '../../errors.js';
import { colorEnabled, printPlan, runCommand } from '../present.js';

interface PollFlags extends ConnectionFlags {
  once?: boolean;
  timeout?: string;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
}

export const DEFAULT_WAIT_SECONDS = 600;

export function registerPoll(program: Command): void {
  program
    .command('poll')
    .description('poll a remote action until it is finished or failed, then print its plan (failed: exit 3)')
    .argument('<actionUuid>', 'the actionUuid printed by "routeplan submit"')
    .option('--remote <base-url>', 'service base URL (or ROUTEPLAN_BASE_URL, or base_url in the config file)')
    .option('--api-key <key>', 'API key (or ROUTEPLAN_API_KEY, or api_key in the config file)')
    .option('--api-key-file <file>', 'a file holding the API key (safer than --api-key, which other users can see in ps)')
    .option('--once', 'check once and print the status instead of waiting')
    .option('--timeout <seconds>', `give up waiting after this long (default ${DEFAULT_WAIT_SECONDS})`)
    .option('--json', 'print the plan as JSON; with --once, always the action record (with its solution once finished)')
    .option('-q, --quiet', 'no progress notes on stderr')
    .option('--no-color', 'no colour in the output')
    .action(async (actionUuid: string, flags: PollFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        assertActionId(actionUuid);
        const timeoutSeconds = parseTimeoutSeconds(flags.timeout, DEFAULT_WAIT_SECONDS);
        const note = (message: string): void => {
          if (!flags.quiet) process.stderr.write(`routeplan: ${message}\n`);
        };
        const client = connect(flags, { note });
        if (flags.once) {
          const action = await getAction(client, actionUuid, client.now() + timeoutSeconds * 1000);
          // One shape for scripts, whatever the status: the action record (with `solution` once finished).
          if (flags.json) {
            process.stdout.write(`${JSON.stringify(action, null, 2)}\n`);
            return action.status === 'failed' ? ExitCode.routingFailure : ExitCode.ok;
          }
          if (!isFinalStatus(action.status)) {
            process.stdout.write(`${String(action.status)}\n`);
            return;
          }
          await printPlan(planOf(action), { json: false, color });
          return;
        }
        const action = await waitForAction(client, actionUuid, { timeoutMs: timeoutSeconds * 1000 });
        await printPlan(planOf(action), { json: flags.json === true, color });
      });
    });
}

/** Refuses ids that cannot name an action (and would change the request path). */
export function assertActionId(actionUuid: string): void {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(actionUuid)) {
    throw new InputError(`invalid actionUuid "${actionUuid}": expected the id printed by "routeplan submit"`, [
      { path: 'actionUuid', message: 'expected letters, digits and dashes' },
    ]);
  }
}
