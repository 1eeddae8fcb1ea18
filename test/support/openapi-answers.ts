/**
 * Holds the service's answers to its OpenAPI document: a tap (src/server/http/tap.ts) records what
 * every test service answers, and each recorded JSON body is checked with ajv (JSON Schema 2020-12)
 * against the document's schema for its route, method and status. A problem names the route,
 * method, status and ajv's path into the body.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { HttpTap, TappedAnswer } from '../../src/server/http/tap.js';
import { openApiDocument } from '../../src/server/openapi/document.js';
import { documentPath } from '../../src/server/openapi/route-paths.js';

type Json = Record<string, any>;

/** Records answers until they are checked. */
export class AnswerRecorder {
  readonly answers: TappedAnswer[] = [];
  readonly tap: HttpTap = { answer: (answer) => void this.answers.push(answer) };

  /** The problems of the answers recorded since the last call, which it forgets. */
  takeProblems(): string[] {
    return this.answers.splice(0).flatMap((answer) => answerProblems(answer));
  }
}

/** What is wrong with one answer, in the document's terms; none for a body that is not JSON. */
export function answerProblems(answer: TappedAnswer): string[] {
  if (answer.body === null || answer.body === '' || !/^application\/(?:[a-z0-9.+-]+\+)?json\b/i.test(answer.contentType ?? '')) return [];
  const path = answer.route === undefined ? '(no route)' : documentPath(answer.route);
  const where = `${answer.method} ${path} ${answer.status}`;
  const schema = schemaFor(path, answer.method, answer.status);
  if (typeof schema === 'string') return [`${where}: ${schema}`];
  const validate = validatorOf(schema);
  if (validate(JSON.parse(answer.body))) return [];
  return (validate.errors ?? []).map((error) => `${where}: body${error.instancePath} ${error.message ?? ''} (${error.schemaPath})`);
}

/**
 * The schema of that answer: the operation's response for the status, else its `default`; an
 * answer of no operation (no route, or a method the path does not answer) must be an error.
 */
function schemaFor(path: string, method: string, status: number): Json | string {
  const operation: Json | undefined = openApiDocument().paths[path]?.[method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()];
  if (!operation)
    return status >= 400 ? { $ref: '#/components/schemas/Error' } : 'a success of an operation the document does not describe';
  const response = operation.responses[String(status)] ?? operation.responses.default;
  const json = response?.content?.['application/json'] as Json | undefined;
  if (!json) return 'a JSON body where the document says the answer has none';
  // A JSON answer the document gives no schema (the document itself) is any JSON.
  return (json.schema as Json | undefined) ?? {};
}

const validators = new Map<string, ValidateFunction>();

/** One validator per response schema, resolving its `$ref`s into the document's components. */
function validatorOf(schema: Json): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    const components = openApiDocument().components as Json;
    // The document's references point into components; as $defs of one schema, ajv resolves them alone.
    const text = JSON.stringify({ ...schema, $defs: components.schemas }).replaceAll('#/components/schemas/', '#/$defs/');
    validate = ajv.compile(JSON.parse(text) as Json);
    validators.set(key, validate);
  }
  return validate;
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
