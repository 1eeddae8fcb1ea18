/** `routeplan poll <actionUuid>`: follow a remote action to its end and print its plan. */
import type { Command } from 'commander';
import { connect } from '../../client/connection.js';
import { getAction, isFinalStatus, planOf, waitForAction } from '../../client/service.js';
import { ExitCode, InputError } from '../../errors.js';
import { colorEnabled, printPlan, runCommand } from '../present.js';
import { noteUnlessQuiet } from '../follow.js';
import { addSettingOptions, commandSettings } from '../options.js';

interface PollFlags {
  once?: boolean;
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
}

export function registerPoll(program: Command): void {
  const command = program
    .command('poll')
    .description('poll a remote action until it is finished or failed, then print its plan (failed: exit 3)')
    .argument('<actionUuid>', 'the actionUuid printed by "routeplan submit"')
    .action(async (actionUuid: string, flags: PollFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        assertActionId(actionUuid);
        const settings = commandSettings('poll', { ...flags });
        const timeoutMs = settings.timeoutMs;
        const note = noteUnlessQuiet(flags.quiet);
        const client = connect(settings, { note });
        if (flags.once) {
          const action = await getAction(client, actionUuid, client.now() + timeoutMs);
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
        const action = await waitForAction(client, actionUuid, { timeoutMs });
        await printPlan(planOf(action), { json: flags.json === true, color });
      });
    });
  addSettingOptions(command, 'poll');
}

/** Refuses ids that cannot name an action (and would change the request path). */
export function assertActionId(actionUuid: string): void {
  assertRecordId(actionUuid, 'actionUuid', 'the id printed by "routeplan submit"');
}

/** Refuses an id argument `name` that cannot name a record of the service (it would change the request path). */
export function assertRecordId(id: string, name: string, expected: string): void {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) {
    throw new InputError(`invalid ${name} "${id}": expected ${expected}`, [{ path: name, message: 'expected letters, digits and dashes' }]);
  }
}
