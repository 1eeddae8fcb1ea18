/**
 * The OpenAPI document (src/server/openapi/): valid OpenAPI 3.1 by a maintained validator, served
 * at /openapi.json without a key, describing every route the service registers (but the few
 * listed below, which are no API), and strict enough that an answer off its schema is named.
 * That every answer of the server tests matches it is checked by test/server/harness.ts.
 */
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument, OPERATIONS } from '../../src/server/openapi/document.js';
import { documentPath } from '../../src/server/openapi/route-paths.js';
import type { RegisteredRoute } from '../../src/server/http/tap.js';
import { answerProblems } from '../support/openapi-answers.js';
import { api, servicesStoppedAfterEach, smallProject } from './harness.js';

const service = servicesStoppedAfterEach();

/**
 * Routes that are no part of the API, and so not in the document. Anything else the service
 * registers must be described: a new route fails the coverage test below until it is.
 */
const NOT_API: ReadonlySet<string> = new Set([
  // The web application's pages and their files (routes/pages.ts).
  'GET /',
  'GET /projects/{id}',
  'GET /projects/{id}/print',
  'GET /assets/*',
  // A driver's and a customer's pages: HTML, answered with the link's status (routes/drivers.ts, track.ts).
  'GET /drivers/{token}',
  'GET /track/{token}',
  // The driver page's service worker (routes/driver-offline.ts).
  'GET /drivers/sw.js',
  // The --tiles PMTiles extract in byte ranges, for the pages' maps (routes/tiles.ts).
  'GET /tiles/basemap.pmtiles',
  // Prometheus' text format, for a scraper (issue 28).
  'GET /metrics',
]);

/** HEAD is answered by every GET (routes/table.ts), and no route answers anything else. */
const NOT_OPERATIONS = new Set(['HEAD', 'OPTIONS']);

function operationsOf(routes: RegisteredRoute[]): string[] {
  return routes.flatMap((route) =>
    route.methods.filter((method) => !NOT_OPERATIONS.has(method)).map((method) => `${method} ${documentPath(route.url)}`),
  );
}

function described(): Set<string> {
  return new Set(
    Object.entries(openApiDocument().paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)),
  );
}

/** The registered operations the document does not describe and that are not on the NOT_API list. */
function undescribed(routes: RegisteredRoute[]): string[] {
  const inDocument = described();
  return operationsOf(routes).filter((operation) => !inDocument.has(operation) && !NOT_API.has(operation));
}

async function registeredRoutes(): Promise<RegisteredRoute[]> {
  const routes: RegisteredRoute[] = [];
  await service({ httpTap: { route: (route) => routes.push(route) } });
  return routes;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('names every operation once, and every schema it refers to exists', () => {
    const ids = OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(new Set(ids).size).toBe(ids.length);
    // A generated client names its functions by operationId: each must be unique.
    const operationIds = Object.values(openApiDocument().paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(new Set(operationIds).size).toBe(ids.length);
    const text = JSON.stringify(openApiDocument());
    const schemas = Object.keys((openApiDocument().components as { schemas: object }).schemas);
    const referred = [...text.matchAll(/"#\/components\/schemas\/([A-Za-z]+)"/g)].map(([, name]) => name!);
    expect(referred.filter((name) => !schemas.includes(name))).toEqual([]);
  });

  it('describes every route the service registers, and no route it does not have', async () => {
    const routes = await registeredRoutes();
    expect(undescribed(routes)).toEqual([]);
    const registered = new Set(operationsOf(routes));
    expect([...described()].filter((operation) => !registered.has(operation))).toEqual([]);
  });

  it('a route added without a description fails the coverage, named', async () => {
    const routes = await registeredRoutes();
    const added = { url: '/v2/schedules/:id(^[A-Za-z0-9-]{1,64}$)/retry', methods: ['POST'] };
    expect(undescribed([...routes, added])).toEqual(['POST /v2/schedules/{id}/retry']);
    expect(undescribed([...routes, { url: '/v1.0/projects', methods: ['GET', 'DELETE'] }])).toEqual(['DELETE /v1.0/projects']);
  });

  it('takes the request bodies from the schemas the service validates with', () => {
    const schemas = (openApiDocument().components as { schemas: Record<string, any> }).schemas;
    expect(schemas.Project.required).toEqual(['name', 'date']);
    expect(Object.keys(schemas.Stop.properties)).toContain('preferred_driver');
    expect(schemas.OneoffRequest.required).toEqual(['routesData', 'ordersData']);
    // A merge patch requires nothing, and PATCH of the project itself takes no stops or drivers.
    expect(schemas.ProjectPatch.required).toBeUndefined();
    expect(Object.keys(schemas.ProjectPatch.properties)).not.toContain('stops');
    const post = openApiDocument().paths['/v1.0/project/{id}/stops']!.post as any;
    expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Stop' });
    expect(post.parameters.map((parameter: any) => parameter.$ref ?? parameter.name)).toEqual([
      'id',
      '#/components/parameters/If-Match',
      '#/components/parameters/X-CSRF-Token',
    ]);
  });
});

describe('GET /openapi.json', () => {
  it('answers the document without a key, cacheable with an ETag', async () => {
    const svc = await service();
    const first = await api(svc.url, 'GET', '/openapi.json', { key: null });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(first.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${svc.url}/openapi.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('the check of recorded answers', () => {
  const answer = { method: 'GET', route: '/v2/schedules/:id(^[A-Za-z0-9-]{1,64}$)', status: 200, contentType: 'application/json' };

  it('names the route, the status and ajv’s path of an answer off the document', () => {
    const body = JSON.stringify({ actionUuid: 'a', actionName: 'schedule', status: 'done', created_at: 'x', updated_at: 'x' });
    expect(answerProblems({ ...answer, body })).toEqual([
      'GET /v2/schedules/{id} 200: body/status must be equal to one of the allowed values (#/properties/status/enum)',
    ]);
  });

  it('holds an undocumented status to the error shape, and a success of no operation is refused', () => {
    expect(answerProblems({ ...answer, status: 418, body: JSON.stringify({ error: { code: 'x', message: 'y', details: [] } }) })).toEqual(
      [],
    );
    expect(answerProblems({ ...answer, status: 418, body: '{"oops":1}' })).toContain(
      "GET /v2/schedules/{id} 418: body must have required property 'error' (#/$defs/Error/required)",
    );
    expect(answerProblems({ ...answer, method: 'PUT', body: '{}' })).toEqual([
      'PUT /v2/schedules/{id} 200: a success of an operation the document does not describe',
    ]);
    expect(answerProblems({ ...answer, contentType: 'text/html', body: '<p>' })).toEqual([]);
  });

  it('holds a project record’s stops and drivers to the schemas the project was validated with', async () => {
    const svc = await service();
    const created = await api(svc.url, 'POST', '/v1.0/project', { body: smallProject() });
    const route = '/v1.0/project/:id(^[A-Za-z0-9-]{1,64}$)';
    const record = { method: 'GET', route, status: 200, contentType: 'application/json; charset=utf-8' };
    expect(answerProblems({ ...record, body: JSON.stringify(created.body) })).toEqual([]);
    const broken = { ...created.body, stops: [{ ...created.body.stops[0], location: 5 }], drivers: [{ name: 'Théo' }] };
    const problems = answerProblems({ ...record, body: JSON.stringify(broken) });
    expect(problems).toContain(
      "GET /v1.0/project/{id} 200: body/drivers/0 must have required property 'id' (#/properties/drivers/items/allOf/1/required)",
    );
    expect(problems.some((problem) => problem.startsWith('GET /v1.0/project/{id} 200: body/stops/0/location must be object'))).toBe(true);
  });
});
