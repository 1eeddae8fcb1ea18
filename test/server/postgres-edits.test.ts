/**
 * Two `routeplan serve` processes on one PostgreSQL change one project at once (issue 24): the
 * database, not either process's memory, decides which change is made. Each round both send a
 * PATCH with the same If-Match at the same moment: exactly one is 200, the other 412, and the
 * record then holds the winner's change, one version on; nothing is lost over the rounds.
 */
import { describe, expect, it } from 'vitest';
import { databasePerTest, postgresUnavailable } from '../support/postgres.js';
import { api, smallProject } from './harness.js';
import { builtServersOnDatabase, type BuiltServer } from './built.js';

const KEY = 'edit-key';
const ROUNDS = 10;

describe.skipIf(postgresUnavailable())('two serve processes editing one project on PostgreSQL (built binary)', () => {
  const db = databasePerTest();
  const serveOnDb = builtServersOnDatabase(db, { ROUTEPLAN_SERVER_KEYS: KEY }, 'edits');
  const serve = (name: string): Promise<BuiltServer> => serveOnDb(name, ['--role', 'api']);

  function patch(server: BuiltServer, id: string, name: string, version: number): Promise<Response> {
    return fetch(`${server.url}/v1.0/project/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'if-match': `"${version}"` },
      body: JSON.stringify({ name }),
    });
  }

  it(`${ROUNDS} rounds of two PATCHes with one If-Match, one per process: one 200 and one 412 each, the winner’s change kept`, async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    const created = await api(one.url, 'POST', '/v1.0/project', { key: KEY, body: smallProject() });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const winners: string[] = [];
    for (let version = 1; version <= ROUNDS; version += 1) {
      const names = [`one ${version}`, `two ${version}`];
      const answers = await Promise.all([patch(one, id, names[0]!, version), patch(two, id, names[1]!, version)]);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.slice().sort()).toEqual([200, 412]);
      const winner = names[statuses.indexOf(200)]!;
      winners.push(winner);
      for (const server of [one, two]) {
        const read = await api(server.url, 'GET', `/v1.0/project/${id}`, { key: KEY });
        expect([read.body.name, read.body.version, read.headers.get('etag')]).toEqual([winner, version + 1, `"${version + 1}"`]);
      }
    }
    const won = winners.map((winner) => winner.split(' ')[0]);
    console.log(`${ROUNDS} rounds of two concurrent PATCHes: each one 200 and one 412; won by ${won.join(', ')}`);
  }, 60_000);

  it('two processes change two stops with one If-Match: one 200 and one 412; the loser re-applies on the new version, both kept', async () => {
    const [one, two] = [await serve('one'), await serve('two')];
    const created = await api(one.url, 'POST', '/v1.0/project', { key: KEY, body: smallProject() });
    const { id, stops } = created.body as { id: string; stops: { id: string }[] };
    const changeStop = (server: BuiltServer, stopId: string, change: Record<string, unknown>, version: number): Promise<Response> =>
      fetch(`${server.url}/v1.0/project/${id}/stops/${stopId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'if-match': `"${version}"` },
        body: JSON.stringify(change),
      });
    const changes = [
      { server: one, stopId: stops[0]!.id, change: { duration: 12 } },
      { server: two, stopId: stops[1]!.id, change: { end: '11:30' } },
    ];
    const answers = await Promise.all(changes.map(({ server, stopId, change }) => changeStop(server, stopId, change, 1)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const lost = changes[answers.findIndex((answer) => answer.status === 412)]!;
    const refused = (await answers.find((answer) => answer.status === 412)!.json()) as any;
    expect([refused.error.code, answers.find((answer) => answer.status === 412)!.headers.get('etag')]).toEqual(['version_mismatch', '"2"']);
    // As the page does after a 412: the change sent again with the version the refusal named.
    expect((await changeStop(lost.server, lost.stopId, lost.change, 2)).status).toBe(200);
    for (const server of [one, two]) {
      const read = (await api(server.url, 'GET', `/v1.0/project/${id}`, { key: KEY })).body;
      expect([read.version, read.stops[0].duration, read.stops[1].end]).toEqual([3, 12, '11:30']);
    }
  }, 60_000);
});
