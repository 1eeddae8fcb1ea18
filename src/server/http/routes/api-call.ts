/** One authenticated API request, as every API route's handler gets it (api.ts apiHandler makes it). */
import type { FastifyReply } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { RequestNotes } from '../context.js';

export interface ApiCall {
  req: IncomingMessage;
  reply: FastifyReply;
  /** The `:id` of the path, when it has one. */
  id: string;
  /** Every parameter of the path. */
  params: Record<string, string | undefined>;
  owner: string;
  notes: RequestNotes;
}
