/**
 * Proof of delivery (decisions.md, "The live day"): the photo, the drawn signature and the
 * recipient's name a driver gives on Done, checked (real images, limited in size), required as the
 * project's `settings.proof` says, kept in the store's files beside the stop's status, and deleted
 * with it (set back to planned, dropped by a re-dispatch, or by retention).
 */
import { randomBytes } from 'node:crypto';
import type { ProofSetting, StopProof, StopStatusUpdate } from '../../api-types.js';
import { HttpError } from '../../http/replies.js';
import type { BlobStore } from '../../store/ports.js';
import { PROOF_SETTINGS } from '../../../input/schema/proof-setting.js';
import { checkImage, ImageRefused, formatBytes, type CheckedImage, type ImageType } from './proof-image.js';

export const PROOF_KINDS = ['photo', 'signature'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

/** A phone photo downscaled in the page is at most 2 MB; a little room for other clients. */
export const MAX_BYTES: Record<ProofKind, number> = { photo: 2_500_000, signature: 200_000 };
export const MAX_RECIPIENT_LENGTH = 200;

/** One kept file: where its bytes are, and what they are (checked when received). */
export interface StoredProofFile {
  id: string;
  type: ImageType;
  size: number;
}

/** What a done stop's record keeps of its proof. */
export interface StoredProof {
  photo?: StoredProofFile;
  signature?: StoredProofFile;
  recipient?: string;
}

/** The proof of a Done report, checked but not yet kept. */
export interface ReceivedProof {
  photo?: CheckedImage;
  signature?: CheckedImage;
  recipient?: string;
}

/** The proof fields of a Done report; 400/413/415 naming the field when one is not acceptable. */
export function receivedProof(body: unknown): ReceivedProof {
  const update = body as Partial<Record<keyof StopStatusUpdate, unknown>>;
  const received: ReceivedProof = {};
  for (const kind of PROOF_KINDS) {
    const value = update[kind];
    if (value === undefined || value === null || value === '') continue;
    received[kind] = imageOf(kind, value);
  }
  const recipient = update.recipient;
  if (recipient !== undefined && recipient !== null) {
    if (typeof recipient !== 'string') throw invalid(400, 'recipient', 'expected a text');
    if (recipient.trim().length > MAX_RECIPIENT_LENGTH) throw invalid(400, 'recipient', `at most ${MAX_RECIPIENT_LENGTH} characters`);
    if (recipient.trim() !== '') received.recipient = recipient.trim();
  }
  return received;
}

function imageOf(kind: ProofKind, value: unknown): CheckedImage {
  if (typeof value !== 'string') throw invalid(400, kind, 'expected the image as base64 or a data: URL');
  const base64 = value.replace(/^data:[\w/+.-]*;base64,/, '');
  // Counted before decoding: a body of many megabytes is refused without holding it twice.
  const decodedSize = Math.floor((base64.length * 3) / 4);
  if (decodedSize > MAX_BYTES[kind] + 3) {
    throw invalid(413, kind, `is about ${formatBytes(decodedSize)}; at most ${formatBytes(MAX_BYTES[kind])} is allowed`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw invalid(400, kind, 'is not valid base64');
  try {
    return checkImage(new Uint8Array(Buffer.from(base64, 'base64')), MAX_BYTES[kind]);
  } catch (error) {
    if (error instanceof ImageRefused) throw invalid(error.status, kind, error.message);
    throw error;
  }
}

/** 400 naming what `setting` asks for and the report lacks. */
export function requireProof(setting: ProofSetting, received: ReceivedProof): void {
  const missing = missingProof(setting, received);
  if (missing === null) return;
  throw new HttpError(400, 'proof_required', `this stop needs proof of delivery: ${missing.message}`, [missing]);
}

function missingProof(setting: ProofSetting, received: ReceivedProof): { path: string; message: string } | null {
  if (setting === 'photo' && !received.photo) return { path: 'photo', message: 'add a photo of the delivery before Done' };
  if (setting === 'signature' && !received.signature) {
    return { path: 'signature', message: 'the recipient must sign before Done' };
  }
  if (setting === 'photo_or_signature' && !received.photo && !received.signature) {
    return { path: 'photo', message: 'add a photo of the delivery or the recipient’s signature before Done' };
  }
  return null;
}

/** The project's `settings.proof`, `none` when absent (or anything else: validation keeps it one of the four). */
export function proofSettingOf(settings: Record<string, unknown> | undefined): ProofSetting {
  const value = settings?.proof;
  return (PROOF_SETTINGS as readonly unknown[]).includes(value) ? (value as ProofSetting) : 'none';
}

/** The URLs of a stop's proof under `base` (the owner's or the driver link's path of the stop). */
export function proofView(stored: StoredProof | undefined, base: string): { proof?: StopProof } {
  if (!stored || (!stored.photo && !stored.signature && stored.recipient === undefined)) return {};
  return {
    proof: {
      ...(stored.photo ? { photo_url: `${base}/photo` } : {}),
      ...(stored.signature ? { signature_url: `${base}/signature` } : {}),
      ...(stored.recipient !== undefined ? { recipient: stored.recipient } : {}),
    },
  };
}

/** Where proof files are kept: the store's files port, one random id per file. */
export class ProofFiles {
  constructor(private readonly blobs: BlobStore) {}

  /** Writes the received files; on a failure, those already written are taken back. */
  async keep(received: ReceivedProof): Promise<StoredProof> {
    const stored: StoredProof = received.recipient !== undefined ? { recipient: received.recipient } : {};
    try {
      for (const kind of PROOF_KINDS) {
        const image = received[kind];
        if (!image) continue;
        const id = randomBytes(16).toString('hex');
        await this.blobs.put(id, image.bytes);
        stored[kind] = { id, type: image.type, size: image.bytes.length };
      }
    } catch (error) {
      await this.discard(stored).catch(() => undefined);
      throw error;
    }
    return stored;
  }

  /** The bytes and type of one kind of a stop's proof, or null when it has none. */
  async read(stored: StoredProof | undefined, kind: ProofKind): Promise<{ bytes: Uint8Array; type: ImageType } | null> {
    const file = stored?.[kind];
    const bytes = file ? await this.blobs.get(file.id) : null;
    return file && bytes ? { bytes, type: file.type } : null;
  }

  /** Deletes the files of a proof (those already gone are fine). */
  async discard(stored: StoredProof | undefined): Promise<void> {
    for (const kind of PROOF_KINDS) {
      const file = stored?.[kind];
      if (file) await this.blobs.remove(file.id);
    }
  }
}

function invalid(status: 400 | 413 | 415, path: string, message: string): HttpError {
  const code = status === 413 ? 'proof_too_large' : status === 415 ? 'unsupported_image' : 'invalid_proof';
  return new HttpError(status, code, `invalid proof of delivery: ${path}: ${message}`, [{ path, message }]);
}
