/** The service's routes as the document names them: fastify's `:id(^…$)` is OpenAPI's `{id}`. */

/** `/v1.0/project/:id(^[A-Za-z0-9-]{1,64}$)/stops` → `/v1.0/project/{id}/stops`. */
export function documentPath(fastifyUrl: string): string {
  return fastifyUrl.replace(/:([A-Za-z]+)(\([^)]*\))?/g, '{$1}');
}
