/**
 * Proof of delivery's rules without a server: the image checks (real JPEG, PNG and WebP bytes made
 * by Chromium's canvas pass; a renamed text file, a cut-off image, one too large or of absurd
 * dimensions are refused with 415, 400 or 413), `settings.proof` as the input layer validates it,
 * the failure reasons, and what settings.proof requires on Done.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkImage, ImageRefused, MAX_SIDE_PX, sniffType } from '../../src/server/services/dispatch/proof-image.js';
import { MAX_BYTES, receivedProof, requireProof } from '../../src/server/services/dispatch/proof.js';
import { checkStatusUpdate } from '../../src/server/services/dispatch/status-update.js';
import { HttpError } from '../../src/server/http/replies.js';
import { detailAt, inputError, load, project } from '../input/helpers.js';

const IMAGES = join(import.meta.dirname, 'proof-images');
const jpeg = new Uint8Array(readFileSync(join(IMAGES, 'photo.jpg')));
const png = new Uint8Array(readFileSync(join(IMAGES, 'signature.png')));
const webp = new Uint8Array(readFileSync(join(IMAGES, 'photo.webp')));

function refusal(run: () => unknown): ImageRefused {
  try {
    run();
  } catch (error) {
    if (error instanceof ImageRefused) return error;
    throw error;
  }
  throw new Error('expected the image to be refused');
}

function httpError(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

/** A real PNG of `width`×`height` (one grey row repeated), as any encoder writes it. */
function pngOf(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    return Buffer.concat([head, data, Buffer.alloc(4)]); // the CRC is not what is checked here
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * Math.min(height, 4), 0x80);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', new Uint8Array()),
    ]),
  );
}

describe('the image checks', () => {
  it('pass real JPEG, PNG and WebP bytes, with their type and dimensions read from the content', () => {
    expect(checkImage(jpeg, MAX_BYTES.photo)).toMatchObject({ type: 'image/jpeg', width: 64, height: 48 });
    expect(checkImage(png, MAX_BYTES.signature)).toMatchObject({ type: 'image/png', width: 120, height: 40 });
    expect(checkImage(webp, MAX_BYTES.photo)).toMatchObject({ type: 'image/webp', width: 64, height: 48 });
  });

  it('refuse a text file named photo.jpg with 415, whatever its name', () => {
    const text = new TextEncoder().encode('this is not a photo, only a file called photo.jpg\n');
    expect(sniffType(text)).toBeNull();
    const error = refusal(() => checkImage(text, MAX_BYTES.photo));
    expect([error.status, error.message]).toEqual([415, 'is not a JPEG, PNG or WebP image']);
  });

  it('refuse an image cut off on the way (JPEG, PNG, WebP) with 400', () => {
    for (const [bytes, name] of [
      [jpeg, 'JPEG'],
      [png, 'PNG'],
      [webp, 'WEBP'],
    ] as const) {
      const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6));
      const error = refusal(() => checkImage(cut, MAX_BYTES.photo));
      expect([error.status, error.message]).toEqual([400, `is not a whole ${name} image (cut off or damaged)`]);
    }
    expect(refusal(() => checkImage(jpeg.subarray(0, 3), MAX_BYTES.photo)).status).toBe(400);
  });

  it('refuse an image over the size limit with 413, before reading it', () => {
    const large = new Uint8Array(MAX_BYTES.photo + 1);
    large.set(jpeg);
    const error = refusal(() => checkImage(large, MAX_BYTES.photo));
    expect([error.status, error.message]).toEqual([413, 'is 2.5 MB; at most 2.5 MB is allowed']);
    expect(refusal(() => checkImage(jpeg, 500)).status).toBe(413);
  });

  it('refuse absurd dimensions (a decompression bomb, a zero side) with 400, and pass sane ones', () => {
    expect(checkImage(pngOf(1600, 1200), MAX_BYTES.photo)).toMatchObject({ width: 1600, height: 1200 });
    for (const [width, height] of [
      [100_000, 100_000],
      [MAX_SIDE_PX + 1, 10],
      [8_000, 8_000],
      [0, 10],
    ]) {
      const error = refusal(() => checkImage(pngOf(width!, height!), MAX_BYTES.photo));
      expect(error.status).toBe(400);
      expect(error.message).toBe(`has dimensions ${width}×${height}; each side must be 1–${MAX_SIDE_PX} px`);
    }
    const huge = jpeg.slice();
    const frame = huge.findIndex((byte, at) => byte === 0xff && huge[at + 1] === 0xc0);
    huge.set([0xff, 0xff, 0xff, 0xff], frame + 5); // height and width 65535
    expect(refusal(() => checkImage(huge, MAX_BYTES.photo)).status).toBe(400);
  });
});

describe('the proof fields of a Done report', () => {
  const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

  it('take base64 or a data: URL, and the recipient’s name trimmed', () => {
    const received = receivedProof({
      status: 'done',
      photo: `data:image/jpeg;base64,${base64(jpeg)}`,
      signature: base64(png),
      recipient: '  Mme Durand ',
    });
    expect(received.photo?.type).toBe('image/jpeg');
    expect(received.signature?.type).toBe('image/png');
    expect(received.recipient).toBe('Mme Durand');
  });

  it('name the field of a bad file, with 415, 413 or 400', () => {
    const notImage = httpError(() => receivedProof({ status: 'done', photo: base64(new TextEncoder().encode('hello')) }));
    expect([notImage.status, notImage.code, notImage.details]).toEqual([
      415,
      'unsupported_image',
      [{ path: 'photo', message: 'is not a JPEG, PNG or WebP image' }],
    ]);
    const bigSignature = httpError(() => receivedProof({ status: 'done', signature: base64(new Uint8Array(300_000)) }));
    expect([bigSignature.status, bigSignature.details[0]?.path]).toEqual([413, 'signature']);
    expect(httpError(() => receivedProof({ status: 'done', photo: 'not base64 at all!' })).status).toBe(400);
    expect(httpError(() => receivedProof({ status: 'done', photo: 42 })).details[0]?.path).toBe('photo');
    expect(httpError(() => receivedProof({ status: 'done', recipient: 'x'.repeat(201) })).details[0]?.path).toBe('recipient');
  });

  it('are required as settings.proof says, with a 400 naming what is missing', () => {
    const photo = receivedProof({ status: 'done', photo: base64(jpeg) });
    const signature = receivedProof({ status: 'done', signature: base64(png) });
    const nameOnly = receivedProof({ status: 'done', recipient: 'Mme Durand' });
    expect(() => requireProof('none', nameOnly)).not.toThrow();
    expect(() => requireProof('photo', photo)).not.toThrow();
    expect(() => requireProof('photo_or_signature', signature)).not.toThrow();
    const noPhoto = httpError(() => requireProof('photo', signature));
    expect([noPhoto.status, noPhoto.code, noPhoto.message]).toEqual([
      400,
      'proof_required',
      'this stop needs proof of delivery: add a photo of the delivery before Done',
    ]);
    expect(httpError(() => requireProof('signature', photo)).details[0]?.path).toBe('signature');
    expect(httpError(() => requireProof('photo_or_signature', nameOnly)).message).toContain('a photo of the delivery or');
  });
});

describe('failure reasons', () => {
  const now = new Date('2026-11-24T10:00:00Z');

  it('take a code from the list, with optional text', () => {
    expect(checkStatusUpdate({ status: 'failed', reason_code: 'not_at_home' }, now)).toMatchObject({
      status: 'failed',
      reason_code: 'not_at_home',
    });
    expect(checkStatusUpdate({ status: 'failed', reason_code: 'damaged', reason: ' box crushed ' }, now)).toMatchObject({
      reason_code: 'damaged',
      reason: 'box crushed',
    });
  });

  it('need text for "other", and refuse a code not on the list', () => {
    const other = httpError(() => checkStatusUpdate({ status: 'failed', reason_code: 'other', reason: ' ' }, now));
    expect([other.status, other.details]).toEqual([400, [{ path: 'reason', message: 'say what happened: "other" needs a text' }]]);
    const unknown = httpError(() => checkStatusUpdate({ status: 'failed', reason_code: 'dog' }, now));
    expect(unknown.details[0]).toEqual({
      path: 'reason_code',
      message: 'expected one of not_at_home, refused, address_not_found, damaged, other',
    });
    expect(httpError(() => checkStatusUpdate({ status: 'failed' }, now)).details[0]?.path).toBe('reason');
  });

  it('keep an older page working: a bare reason is code "other"', () => {
    expect(checkStatusUpdate({ status: 'failed', reason: 'Closed' }, now)).toMatchObject({ reason_code: 'other', reason: 'Closed' });
  });
});

describe('settings.proof', () => {
  it.each(['none', 'photo', 'signature', 'photo_or_signature'])('%j is accepted', (proof) => {
    expect(() => load(project({ settings: { proof } }))).not.toThrow();
  });

  it.each(['photograph', '', 'PHOTO', true, 1])('%j is refused at settings.proof, naming the values allowed', (proof) => {
    const error = inputError(() => load(project({ settings: { proof } })));
    expect(detailAt(error, 'settings.proof').message).toMatch(/is not allowed; use one of none, photo, signature, photo_or_signature$/);
  });
});
