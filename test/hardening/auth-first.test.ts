/** Issue 10: authentication comes before method matching, so a stranger cannot map the API's routes. */
import { afterEach, describe, expect, it } from 'vitest';
import { api, removeDir, startTestService, type TestService } from '../server/harness.js';

const services: TestService[] = [];
afterEach(async () => {
  for (const svc of services.splice(0)) {
    await svc.stop();
    await removeDir(svc.dataDir);
  }
});

describe('a wrong method on an API path', () => {
  it('is 401 without a key (no Allow header), and 405 with Allow for an authenticated caller', async () => {
    const svc = await startTestService();
    services.push(svc);
    for (const path of ['/schedules', '/v1.0/project', '/v1.0/projects', '/v1.0/project/abc/optimize', '/v1.0/project/abc/dispatch']) {
      const stranger = await api(svc.url, 'DELETE', path, { key: null });
      expect([stranger.status, stranger.headers.get('allow')], path).toEqual([401, null]);
      const wrongKey = await api(svc.url, 'PUT', path, { key: 'not-a-key' });
      expect(wrongKey.status, path).toBe(401);
      const known = await api(svc.url, 'DELETE', path);
      expect(known.status, path).toBe(405);
      expect(known.headers.get('allow'), path).toMatch(/GET|POST/);
    }
  });
});
