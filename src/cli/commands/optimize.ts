/**
 * `routeplan optimize <project-id>`: starts an optimization of a project the service keeps, as its
 * page's Optimize control does (POST /v1.0/project/{id}/optimize), prints the action and, with
 * `--wait`, follows it to its plan exactly as `submit --wait` does, with the same exit codes. Like
 * a submission it carries an Idempotency-Key (fresh, or `--idempotency-key`), so a retry after a
 * lost answer gets the first action, never a second optimization.
 */
import type { Command } from 'commander';
import { connect } from '../../client/connection.js';
import { newIdempotencyKey, optimizeProject } from '../../client/service.js';
import { followAction, followOptionsOf, noteUnlessQuiet } from '../follow.js';
import { addSettingOptions, commandSettings } from '../options.js';
import { colorEnabled, runCommand } from '../present.js';
import { assertRecordId } from './poll.js';

interface OptimizeFlags {
  wait?: boolean;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export function registerOptimize(program: Command): void {
  const command = program
    .command('optimize')
    .description('optimize a project kept by a routeplan service (prints the action; --wait: its plan)')
    .argument('<project-id>', 'the project id printed by "routeplan submit"')
    .action(async (projectId: string, flags: OptimizeFlags) => {
      const color = colorEnabled(flags);
      await runCommand({ json: flags.json === true, color }, async () => {
        assertRecordId(projectId, 'project-id', 'the project id printed by "routeplan submit"');
        const settings = commandSettings('optimize', { ...flags });
        const note = noteUnlessQuiet(flags.quiet);
        const client = connect(settings, { note });
        const { created: ack, replayed } = await optimizeProject(client, projectId, settings.idempotencyKey ?? newIdempotencyKey());
        if (replayed && !flags.json) note(`the service already had this request: action ${ack.actionUuid}`);
        await followAction(client, ack, followOptionsOf(flags, color, settings.timeoutMs));
      });
    });
  addSettingOptions(command, 'optimize');
}
