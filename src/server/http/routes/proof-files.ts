/**
 * Proof of delivery files (decisions.md, "The live day"), to the project's owner and to the
 * driver link whose stop it is, and to no one else:
 *   GET /v1.0/project/{id}/dispatch/stops/{stopId}/photo|signature   (API key or session)
 *   GET /drivers/{token}/stops/{stopId}/photo|signature              (the driver's own stop)
 * Served with the type checked when received, never sniffed by the browser, kept private.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { HttpError } from '../replies.js';
import { PROOF_KINDS, type ProofKind } from '../../services/dispatch/proof.js';
import type { ImageType } from '../../services/dispatch/proof-image.js';
import { apiHandler, apiPath, projectNotFound } from './api.js';
import { addPath, idParam, paramOf } from './table.js';

const TOKEN = ':token(^[A-Za-z0-9_-]{1,128}$)';

export function registerProofFiles(app: FastifyInstance, ctx: AppContext): void {
  const add = apiPath(app, ctx);
  for (const kind of PROOF_KINDS) {
    add(`/v1.0/project/${idParam('id')}/dispatch/stops/${idParam('stopId')}/${kind}`, {
      GET: apiHandler(ctx, async (_ctx, call) => {
        const found = await ctx.projects.find(call.owner, call.id);
        if (!found) throw projectNotFound(call.id);
        call.notes.projectId = found.record.id;
        sendProof(call.reply, kind, await ctx.dispatch.proofFile(found.record.id, call.params.stopId ?? '', kind));
      }),
    });
    addPath(app, `/drivers/${TOKEN}/stops/${idParam('stopId')}/${kind}`, {
      GET: async (request, reply) => {
        const file = await ctx.dispatch.driverProofFile(paramOf(request, 'token'), paramOf(request, 'stopId'), kind);
        sendProof(reply, kind, file, { 'referrer-policy': 'no-referrer' });
      },
    });
  }
}

function sendProof(
  reply: FastifyReply,
  kind: ProofKind,
  file: { bytes: Uint8Array; type: ImageType } | null,
  extra: Record<string, string> = {},
): void {
  if (file === null) throw new HttpError(404, 'not_found', `this stop has no ${kind}`);
  void reply
    .code(200)
    .headers({
      'content-type': file.type,
      'content-length': String(file.bytes.length),
      'cache-control': 'private',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'",
      ...extra,
    })
    .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
}
