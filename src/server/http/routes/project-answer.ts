/** A project as the API's answers show it, whichever route answers: read, created or changed. */
import type { AppContext } from '../context.js';
import { HttpError } from '../replies.js';
import type { DispatchView, NotificationsView } from '../../api-types.js';
import type { ProjectView } from '../../services/projects.js';

/** The project with its dispatch, once dispatched, and its customer messages. */
export async function projectAnswer(
  ctx: AppContext,
  project: ProjectView,
): Promise<ProjectView & { dispatch?: DispatchView; notifications: NotificationsView }> {
  const dispatch = await ctx.dispatch.viewOf(project.id);
  return { ...project, ...(dispatch ? { dispatch } : {}), notifications: await ctx.messages.of(project.id) };
}

export function projectNotFound(id: string): HttpError {
  return new HttpError(404, 'not_found', `no project ${id}`);
}
