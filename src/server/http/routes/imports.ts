/**
 * Spreadsheet import for the page's "New project" (README, "Importing spreadsheets"):
 *   POST /v1.0/imports/{stops|drivers}?file=<name>   the file's bytes (CSV or XLSX) → its header, rows and a guess per column
 *   POST /v1.0/imports/{stops|drivers}/items          {header, columns, rows, delimiter?, file?} → items and problems by row
 * Authenticated like every /v1.0 route (with the session cookie, the CSRF token too). Nothing is
 * stored: the page then creates the project with POST /v1.0/project.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { readBytesBody, readJsonBody, sendJson } from '../replies.js';
import type { ApiCall } from './api-call.js';
import { apiHandler, apiPath } from './api.js';
import { convertRows, inspectTable, parseImportRequest, type ImportRole } from '../../../input/import-table.js';
import { readSpreadsheet } from '../../../input/spreadsheet.js';

const ROLES: readonly ImportRole[] = ['stops', 'drivers'];

export function registerImports(app: FastifyInstance, ctx: AppContext): void {
  const add = apiPath(app, ctx);
  for (const role of ROLES) {
    add(`/v1.0/imports/${role}`, { POST: apiHandler(ctx, (_ctx, call) => inspectUpload(ctx, call, role)) });
    add(`/v1.0/imports/${role}/items`, { POST: apiHandler(ctx, (_ctx, call) => convertUpload(ctx, call, role)) });
  }
}

async function inspectUpload(ctx: AppContext, call: ApiCall, role: ImportRole): Promise<void> {
  const label = fileLabel(call, role);
  const bytes = await readBytesBody(call.req, ctx.bodyLimitBytes);
  sendJson(call.reply, 200, inspectTable(await readSpreadsheet(bytes, label), role, label));
}

async function convertUpload(ctx: AppContext, call: ApiCall, role: ImportRole): Promise<void> {
  const request = parseImportRequest(await readJsonBody(call.req, ctx.bodyLimitBytes), role);
  sendJson(call.reply, 200, convertRows(request, ctx.loadOptions));
}

/** The uploaded file's name (`?file=`), which messages name as the CLI names a CSV file; else the role's word. */
function fileLabel(call: ApiCall, role: ImportRole): string {
  const name = new URL(call.req.url ?? '/', 'http://local').searchParams.get('file')?.trim() ?? '';
  // eslint-disable-next-line no-control-regex -- a name goes into messages and logs: no control characters
  return name !== '' && name.length <= 200 && !/[\u0000-\u001f\u007f]/.test(name) ? name : `${role} spreadsheet`;
}
