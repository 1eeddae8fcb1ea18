/**
 * What a proof file must be before it is kept (decisions.md, "The live day"): a real JPEG, PNG or
 * WebP image, told by its bytes (never by a name or a Content-Type a client chose), whole (not cut
 * off on a bad connection), and of sane dimensions. Pure functions over the bytes.
 */

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export interface CheckedImage {
  type: ImageType;
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** Why an image is refused: `status` is the HTTP answer (413 too large, 415 not an image, 400 broken). */
export class ImageRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** A phone photo downscaled to ~1600 px is far below this; a side this long is no photo of a doorstep. */
export const MAX_SIDE_PX = 10_000;
/** 40 megapixels: what a decoder would have to hold in memory is bounded too. */
export const MAX_PIXELS = 40_000_000;

/** The image in `bytes`, checked; throws ImageRefused saying what is wrong. */
export function checkImage(bytes: Uint8Array, maxBytes: number): CheckedImage {
  if (bytes.length > maxBytes) {
    throw new ImageRefused(413, `is ${formatBytes(bytes.length)}; at most ${formatBytes(maxBytes)} is allowed`);
  }
  const type = sniffType(bytes);
  if (type === null) throw new ImageRefused(415, 'is not a JPEG, PNG or WebP image');
  const size = DIMENSIONS[type](bytes);
  if (size === null) throw new ImageRefused(400, `is not a whole ${type.slice(6).toUpperCase()} image (cut off or damaged)`);
  const { width, height } = size;
  if (width < 1 || height < 1 || width > MAX_SIDE_PX || height > MAX_SIDE_PX || width * height > MAX_PIXELS) {
    throw new ImageRefused(400, `has dimensions ${width}×${height}; each side must be 1–${MAX_SIDE_PX} px`);
  }
  return { type, width, height, bytes };
}

/** The type the first bytes announce, or null. */
export function sniffType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  return null;
}

type Size = { width: number; height: number } | null;

const DIMENSIONS: Record<ImageType, (bytes: Uint8Array) => Size> = {
  'image/jpeg': jpegSize,
  'image/png': pngSize,
  'image/webp': webpSize,
};

/** The frame header's size; the image must go on to its scan and end with the end-of-image marker. */
function jpegSize(bytes: Uint8Array): Size {
  let size: Size = null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = uint16(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    if (isFrameHeader(marker) && length >= 7) size = { height: uint16(bytes, at + 5), width: uint16(bytes, at + 7) };
    if (marker === 0xda) return size !== null && endsWithEoi(bytes, at + 2 + length) ? size : null;
    at += 2 + length;
  }
  return null;
}

/** SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Some cameras append data after the image; the end-of-image marker must still follow the scan. */
function endsWithEoi(bytes: Uint8Array, scanStart: number): boolean {
  for (let at = bytes.length - 2; at >= scanStart; at -= 1) {
    if (bytes[at] === 0xff && bytes[at + 1] === 0xd9) return true;
  }
  return false;
}

/** IHDR first, then whole chunks up to IEND. */
function pngSize(bytes: Uint8Array): Size {
  if (bytes.length < 33 || ascii(bytes, 12, 4) !== 'IHDR') return null;
  const size = { width: uint32(bytes, 16), height: uint32(bytes, 20) };
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = uint32(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (at + 12 + length > bytes.length) return null;
    if (type === 'IEND') return size;
    at += 12 + length;
  }
  return null;
}

/** The RIFF container whole, and the size from its first image chunk (lossy, lossless or extended). */
function webpSize(bytes: Uint8Array): Size {
  const riffLength = uint32le(bytes, 4) + 8;
  if (bytes.length < 30 || riffLength > bytes.length) return null;
  const chunk = ascii(bytes, 12, 4);
  const data = 20;
  if (chunk === 'VP8 ' && bytes[data + 3] === 0x9d && bytes[data + 4] === 0x01 && bytes[data + 5] === 0x2a) {
    return { width: uint16le(bytes, data + 6) & 0x3fff, height: uint16le(bytes, data + 8) & 0x3fff };
  }
  if (chunk === 'VP8L' && bytes[data] === 0x2f) {
    const bits = uint32le(bytes, data + 1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: uint24le(bytes, data + 4) + 1, height: uint24le(bytes, data + 7) + 1 };
  return null;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function uint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function uint32(bytes: Uint8Array, at: number): number {
  return uint16(bytes, at) * 65_536 + uint16(bytes, at + 2);
}

function uint16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function uint24le(bytes: Uint8Array, at: number): number {
  return uint16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

function uint32le(bytes: Uint8Array, at: number): number {
  return (uint16le(bytes, at) + uint16le(bytes, at + 2) * 65_536) >>> 0;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} bytes`;
}
