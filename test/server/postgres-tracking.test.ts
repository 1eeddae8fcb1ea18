/**
 * Tracking links on PostgreSQL (decisions.md, "Running the service on more than one machine"): a
 * stop's token made by one process opens on another, which learns it from the database, and a
 * re-dispatch made by one retires a dropped stop's token on the other.
 */
import { describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable } from '../support/postgres.js';
import { api, servicesStoppedAfterEach } from './harness.js';
import { InProcessRunner, optimize, optimizedProject } from './dispatch-harness.js';

describe.skipIf(postgresUnavailable())('tracking links on PostgreSQL', () => {
  const db = databasePerTest();
  const service = servicesStoppedAfterEach(() => ({ database: db().url }));

  it('a token made by one process opens its stop on the other; a stop dropped by a re-dispatch there answers 410', async () => {
    const a = await service({ runner: new InProcessRunner() as never });
    const b = await service({ role: 'api' });
    // b has read every dispatch at start, before this one: it must look the token up in the database.
    const { id } = await optimizedProject(a);
    const view = (await api(a.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: {} })).body;
    const project = (await api(a.url, 'GET', `/v1.0/project/${id}`)).body;
    for (const stop of view.stops) {
      const token = stop.tracking_url.split('/track/')[1];
      const onB = await api(b.url, 'GET', `/track/${token}/status`, { key: null });
      expect(onB.status).toBe(200);
      expect(onB.body.name).toBe(project.stops.find((entry: any) => entry.id === stop.stop_id).name);
      expect(onB.body.promised).toEqual(stop.promised);
    }
    expect((await api(b.url, 'GET', `/track/${'C'.repeat(32)}/status`, { key: null })).status).toBe(404);

    const dropped = view.stops[view.stops.length - 1];
    expect((await api(a.url, 'DELETE', `/v1.0/project/${id}/stops/${dropped.stop_id}`)).status).toBe(200);
    await optimize(a, id);
    await api(a.url, 'POST', `/v1.0/project/${id}/dispatch`, { body: { redispatch: true } });
    const gone = await api(b.url, 'GET', `/track/${dropped.tracking_url.split('/track/')[1]}/status`, { key: null });
    expect([gone.status, gone.body.error?.code]).toEqual([410, 'link_revoked']);
  });
});
