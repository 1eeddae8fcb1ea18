/**
 * A phone's photo made small enough to send over mobile data (decisions.md, "The live day": at most
 * 2 MB): drawn on a canvas at most ~1600 px on its longer side and encoded as JPEG, lower quality
 * first, then smaller, until it fits. The browser decodes it, so HEIC and friends work where it can.
 */
export const MAX_PHOTO_BYTES = 2_000_000;
export const MAX_PHOTO_SIDE = 1600;

const QUALITIES = [0.85, 0.72, 0.6];

/** The photo as a JPEG that fits; throws when the browser cannot read the file as an image. */
export async function downscalePhoto(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error('This file is not a photo the page can read. Take the photo again, or choose a JPEG or PNG.');
  });
  try {
    let side = Math.min(MAX_PHOTO_SIDE, Math.max(bitmap.width, bitmap.height));
    for (;;) {
      for (const quality of QUALITIES) {
        const blob = await encode(bitmap, side, quality);
        if (blob.size <= MAX_PHOTO_BYTES) return blob;
      }
      side = Math.round(side * 0.75);
    }
  } finally {
    bitmap.close();
  }
}

async function encode(bitmap: ImageBitmap, longerSide: number, quality: number): Promise<Blob> {
  const scale = Math.min(1, longerSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This phone’s browser cannot prepare the photo.');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The photo could not be prepared.'))), 'image/jpeg', quality);
  });
}

/** A blob as a data: URL, which the service takes as a report's photo or signature. */
export function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}
