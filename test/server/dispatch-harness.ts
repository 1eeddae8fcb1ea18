/** What the dispatch and notification tests share: the real solver in process, a project that needs two drivers. */
import { expect } from 'vitest';
import type { SolveRunner } from '../../src/server/services/solve-runner.js';
import type { SolveJob, SolveOutcome } from '../../src/server/services/job.js';
import { planOfDocument } from '../../src/threads/tasks.js';
import { api, smallProject, type TestService } from './harness.js';

/** The real solver in this thread, with a short limit: quick, and its plans fit their projects. */
export class InProcessRunner implements SolveRunner {
  async run(job: SolveJob): Promise<SolveOutcome> {
    return { ok: true, plan: await planOfDocument({ ...job, timeLimitMs: 200 }) };
  }
}

/** Two drivers and four stops around Lyon, two on each side of town, with customer details. */
export function twoDriverProject(): Record<string, unknown> {
  const depot = { coords: { lat: 45.76, lng: 4.83 } };
  const stop = (name: string, lat: number, lng: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name,
    location: { address: `${name} street 1, Lyon`, coords: { lat, lng } },
    duration: 10,
    ...extra,
  });
  return smallProject({
    drivers: [
      { name: 'Ana', start_location: depot, shift_start: '08:00', shift_end: '12:00', capacity: 2, phone_number: '+33 6 11 22 33 44' },
      { name: 'Ben', start_location: depot, shift_start: '08:00', shift_end: '12:00', capacity: 2 },
    ],
    stops: [
      stop('North bakery', 45.8, 4.83, { load: 1, phone_number: '+33 4 00 00 00 01', notes: 'Ring twice', email: 'north@example.com' }),
      stop('North cafe', 45.81, 4.84, { load: 1, custom_notes: { door: 'B', floor: 2 } }),
      stop('South bakery', 45.7, 4.83, { load: 1 }),
      stop('South cafe', 45.69, 4.84, { load: 1 }),
    ],
  });
}

export async function optimizedProject(svc: TestService, document = twoDriverProject()): Promise<{ id: string; actionUuid: string }> {
  const created = await api(svc.url, 'POST', '/v1.0/project', { body: document });
  expect(created.status).toBe(201);
  const actionUuid = await optimize(svc, created.body.id);
  return { id: created.body.id, actionUuid };
}

export async function optimize(svc: TestService, projectId: string): Promise<string> {
  const started = await api(svc.url, 'POST', `/v1.0/project/${projectId}/optimize`);
  expect(started.status).toBe(202);
  for (;;) {
    const action = await api(svc.url, 'GET', `/v2/schedules/${started.body.actionUuid}`);
    if (action.body.status !== 'pending') {
      expect(action.body.status).toBe('finished');
      return started.body.actionUuid as string;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function tokenOf(url: string): string {
  return url.split('/drivers/')[1]!;
}
