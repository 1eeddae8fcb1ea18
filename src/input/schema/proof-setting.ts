/** `settings.proof`: what a driver must give on Done (decisions.md, "The live day"). */
import { z } from 'zod';
import { allowed } from './fields.js';

/** From nothing to a photo, a signature, or either; `none` when absent. */
export const PROOF_SETTINGS = ['none', 'photo', 'signature', 'photo_or_signature'] as const;

const PROOF_ALLOWED = `one of ${PROOF_SETTINGS.join(', ')}`;

export const proofSetting = z
  .string(allowed(PROOF_ALLOWED))
  .refine((value) => (PROOF_SETTINGS as readonly string[]).includes(value), allowed(PROOF_ALLOWED));
