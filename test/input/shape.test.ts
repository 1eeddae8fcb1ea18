import { describe, expect, it } from 'vitest';
import { detailAt, inputError, load, oneoff, order, project, route } from './helpers.js';

describe('shape detection', () => {
  it('a document with name, date, drivers and stops is a project (surface A)', () => {
    const loaded = load(project());
    expect(loaded.kind).toBe('project');
    expect(loaded.problem.surface).toBe('project');
    expect(loaded.problem.name).toBe('Test project');
    expect(loaded.problem.date).toBe('2024-05-14');
  });

  it('a document with routesData, ordersData and options is a one-off request (surface B)', () => {
    const loaded = load(oneoff({ options: {} }));
    expect(loaded.kind).toBe('oneoff');
    expect(loaded.problem.surface).toBe('oneoff');
    expect(loaded.problem.name).toBeNull();
    expect(loaded.problem.date).toBeNull();
  });

  it('an unrecognisable document names the top-level fields that are expected', () => {
    const error = inputError(() => load({ vehicles: [], jobs: [] }));
    expect(error.message).toContain('vehicles, jobs');
    expect(error.message).toMatch(/name, date, drivers, stops and settings/);
    expect(error.message).toMatch(/routesData, ordersData and options/);
  });

  it('a document that is not an object is rejected', () => {
    expect(inputError(() => load([1, 2])).message).toMatch(/must be an object, not a list/);
    expect(inputError(() => load(null)).message).toMatch(/not null/);
  });

  it('mixing project fields and one-off fields is rejected', () => {
    const error = inputError(() => load({ ...project(), routesData: [] }));
    expect(error.message).toMatch(/mixes project fields \(drivers, stops\) with one-off fields \(routesData\)/);
  });

  it('expect oneoff rejects a project (the /schedules endpoint takes one-off requests only)', () => {
    const error = inputError(() => load(project(), { expect: 'oneoff' }));
    expect(error.message).toMatch(/Expected a one-off request but this looks like a project/);
  });

  it('expect project rejects a one-off request', () => {
    const error = inputError(() => load(oneoff(), { expect: 'project' }));
    expect(error.message).toMatch(/Expected a project/);
  });

  it('with expect, an empty document is validated as that shape and its required fields are named', () => {
    const error = inputError(() => load({}, { expect: 'project' }));
    expect(detailAt(error, 'name').message).toMatch(/missing/);
    expect(detailAt(error, 'date').message).toMatch(/missing/);
    const oneoffError = inputError(() => load({}, { expect: 'oneoff' }));
    expect(detailAt(oneoffError, 'routesData').message).toMatch(/missing/);
    expect(detailAt(oneoffError, 'ordersData').message).toMatch(/missing/);
  });
});

describe('one-off rejections (interface "Errors", decisions "One-off requests (B)")', () => {
  it('one-off rejects a date field', () => {
    const error = inputError(() => load(oneoff({ date: '2024-05-14' })));
    expect(detailAt(error, 'date').message).toMatch(/one-off request has no date/);
  });

  it('one-off rejects the plain routes and orders fields', () => {
    const error = inputError(() => load({ routes: [route('Van 1')], orders: [order('A')] }));
    expect(detailAt(error, 'routes').message).toMatch(/workspace mode.*routesData/);
    expect(detailAt(error, 'orders').message).toMatch(/workspace mode.*ordersData/);
    // the missing routesData/ordersData are explained by the rejection, not reported twice
    expect(error.details.map((d) => d.path)).toEqual(['routes', 'orders']);
  });

  it('one-off rejects a mix of plain and *Data forms', () => {
    const error = inputError(() => load(oneoff({ routes: [route('Van 1')] })));
    expect(detailAt(error, 'routes').message).toMatch(/cannot be mixed with routesData\/ordersData/);
  });

  it('one-off rejects workspaceUuid (workspace mode is not part of routeplan)', () => {
    const error = inputError(() => load(oneoff({ workspaceUuid: '6f1c2a9e-3b7d-4e8a-9c1f-2d5e7a8b9c0d' })));
    expect(detailAt(error, 'workspaceUuid').message).toMatch(/workspace mode/);
  });

  it('a one-off with only a date and plain forms is still treated as a one-off and gets every rejection', () => {
    const error = inputError(() => load({ date: '2024-05-14', routes: [], orders: [] }));
    expect(error.details.map((d) => d.path).sort()).toEqual(['date', 'orders', 'routes']);
  });

  it('rejections are reported together with field errors', () => {
    const error = inputError(() => load(oneoff({ date: '2024-05-14', ordersData: [order('A', { duration: -1 })] })));
    expect(error.details.map((d) => d.path)).toEqual(['date', 'ordersData[0].duration']);
  });
});
