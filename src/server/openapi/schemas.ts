/**
 * The document's named schemas, each made by zod's own `z.toJSONSchema` (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1) from the schema the service validates with or derives its types from:
 * no shape is written twice. Requests are described as they come in (`io: 'input'`), answers as
 * they go out; a schema named here is referred to by `$ref` wherever another one uses it.
 */
import { z } from 'zod';
import { errorBodySchema, warningSchema } from '../../error-schema.js';
import { planSchema, planViolationSchema } from '../../output/plan-schema.js';
import { driverSchema, projectSchema, stopSchema } from '../../input/schema/project.js';
import { oneoffSchema } from '../../input/schema/oneoff.js';
import { labels } from '../../input/schema/fields.js';
import { convertedRowsSchema, importRequestSchema, inspectedTableSchema } from '../../input/import-schema.js';
import * as actions from '../api-schemas/actions.js';
import * as projects from '../api-schemas/projects.js';
import * as dispatch from '../api-schemas/dispatch.js';
import { sessionViewSchema, tilesViewSchema } from '../api-schemas/session.js';
import { healthSchema } from '../api-schemas/health.js';
import { actionListAnswerSchema } from '../action-list.js';

export type JsonSchema = Record<string, unknown>;

/** What the service answers, by the name the document gives it. */
const ANSWERS = {
  Error: errorBodySchema,
  Warning: warningSchema,
  Plan: planSchema,
  PlanViolation: planViolationSchema,
  ActionRecord: actions.actionRecordSchema,
  ActionList: actionListAnswerSchema,
  AcceptedAction: actions.acceptedActionSchema,
  OptimizationSummary: actions.optimizationSummarySchema,
  PlanEvaluation: actions.planEvaluationSchema,
  KeptPlan: actions.keptPlanSchema,
  ProjectRecord: projects.projectAnswerSchema,
  ProjectList: projects.projectListSchema,
  GeocodingFailure: projects.geocodingFailureSchema,
  DispatchView: dispatch.dispatchViewSchema,
  DriverPosition: dispatch.driverPositionSchema,
  DriverRouteView: dispatch.driverRouteViewSchema,
  DriverStopView: dispatch.driverStopViewSchema,
  SharedPosition: dispatch.sharedPositionSchema,
  TrackingView: dispatch.trackingViewSchema,
  NotificationsView: dispatch.notificationsViewSchema,
  TilesView: tilesViewSchema,
  SessionView: sessionViewSchema,
  InspectedTable: inspectedTableSchema,
  ConvertedRows: convertedRowsSchema,
  Health: healthSchema,
} satisfies Record<string, z.ZodType>;

/** What the service takes, by name: the very schemas its validation runs (or its types derive from). */
const REQUESTS = {
  Project: projectSchema,
  Stop: stopSchema,
  Driver: driverSchema,
  OneoffRequest: oneoffSchema,
  HandPlan: actions.handPlanBodySchema,
  DispatchRequest: dispatch.dispatchRequestSchema,
  StopStatusUpdate: dispatch.stopStatusUpdateSchema,
  PositionReport: dispatch.driverPositionSchema,
  ImportRequest: importRequestSchema,
} satisfies Record<string, z.ZodType>;

export type AnswerName = keyof typeof ANSWERS;
export type RequestName = keyof typeof REQUESTS | 'ProjectPatch' | 'StopPatch' | 'DriverPatch';

/** The `#/components/schemas/…` reference of a named schema. */
export function ref(name: AnswerName | RequestName): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Every named schema of the document, answers and requests. */
export function componentSchemas(): Record<string, JsonSchema> {
  const answers = fromRegistry(ANSWERS, 'output');
  const requests = fromRegistry(REQUESTS, 'input');
  return { ...answers, ProjectRecord: withItemsAsGiven(answers.ProjectRecord!), ...requests, ...mergePatches(requests) };
}

/**
 * A project record keeps its stops, drivers and settings as the user gave them (validated as a
 * Project is, unknown fields kept), each stop and driver with the id the service gave it: so the
 * record refers to the request's schemas for them rather than saying "any object".
 */
function withItemsAsGiven(record: JsonSchema): JsonSchema {
  const properties = record.properties as Record<string, JsonSchema>;
  const withId = (name: 'Stop' | 'Driver'): JsonSchema => ({
    type: 'array',
    items: { allOf: [ref(name), { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }] },
  });
  const settings = { $ref: '#/components/schemas/Project/properties/settings/anyOf/0' };
  return { ...record, properties: { ...properties, stops: withId('Stop'), drivers: withId('Driver'), settings } };
}

function fromRegistry(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    uri: (id) => `#/components/schemas/${id}`,
    // Refinements (a real date, a clock time) are checks JSON Schema cannot say; their fields are described by their type.
    unrepresentable: 'any',
    override: (context) => describeLabels(context),
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema as JsonSchema)]));
}

/**
 * `labels` (types, tags) reads a single name as a list of one before validating: a transform, which
 * JSON Schema has no words for, so its input is said here from the list it becomes.
 */
function describeLabels(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  if (context.zodSchema !== labels) return;
  const list = z.toJSONSchema(labels.out, { target: 'draft-2020-12' });
  for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
  Object.assign(context.jsonSchema, { anyOf: [{ type: 'string' }, withoutDialect(list as JsonSchema)] });
}

/** The document says its dialect once (`jsonSchemaDialect`), and names each schema by its place in it. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * The bodies of the PATCH routes are JSON merge patches (RFC 7396) of a project, a stop or a driver:
 * the same fields, none required, `null` removing one; the merged whole is validated as a new one is.
 * PATCH of the project itself refuses `stops` and `drivers` (they change on their own paths).
 */
function mergePatches(requests: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const patchOf = (schema: JsonSchema, without: string[] = []): JsonSchema => {
    const properties = { ...(schema.properties as Record<string, JsonSchema>) };
    for (const key of without) delete properties[key];
    const nullable = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, { anyOf: [value, { type: 'null' }] }]));
    const { required: _required, ...rest } = schema;
    return {
      ...rest,
      properties: nullable,
      description: 'A JSON merge patch (RFC 7396): the fields given replace the stored ones, null removes one.',
    };
  };
  return {
    ProjectPatch: patchOf(requests.Project!, ['stops', 'drivers']),
    StopPatch: patchOf(requests.Stop!),
    DriverPatch: patchOf(requests.Driver!),
  };
}
