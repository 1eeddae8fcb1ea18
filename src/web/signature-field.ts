/**
 * The recipient's signature, drawn with a finger (or a mouse) on a canvas by signature_pad, which
 * smooths the strokes. The canvas is sized to its box at the screen's pixel ratio once it is on the
 * page, and again when the phone turns (the drawing is kept). Exported as a PNG on white.
 */
import SignaturePad from 'signature_pad';
import { button, h } from './dom.js';

export interface SignatureField {
  element: HTMLElement;
  isEmpty(): boolean;
  /** The drawing as a PNG, or null when nothing was drawn. */
  toBlob(): Promise<Blob | null>;
}

export function signatureField(id: string): SignatureField {
  const canvas = h('canvas', { id, class: 'signature-pad', role: 'img', 'aria-label': 'Signature', 'aria-describedby': `${id}-hint` });
  const pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255, 255, 255)', penColor: '#0f172a', minWidth: 1, maxWidth: 2.6 });
  const status = h('span', { class: 'signature-status', 'aria-live': 'polite' }, 'Not signed yet');
  pad.addEventListener('endStroke', () => (status.textContent = 'Signed'));
  const fit = (): void => fitCanvas(canvas, pad);
  const observer = new ResizeObserver(fit);
  observer.observe(canvas);
  const element = h(
    'div',
    { class: 'field signature-field' },
    h('span', { class: 'field-label', id: `${id}-label` }, 'Signature'),
    canvas,
    h(
      'p',
      { class: 'field-hint', id: `${id}-hint` },
      'The recipient signs with a finger. No way to draw? Type their name in Recipient name instead.',
    ),
    h(
      'div',
      { class: 'signature-actions' },
      status,
      button(
        'Clear signature',
        () => {
          pad.clear();
          status.textContent = 'Not signed yet';
        },
        { class: 'button small' },
      ),
    ),
  );
  return {
    element,
    isEmpty: () => pad.isEmpty(),
    toBlob: () => (pad.isEmpty() ? Promise.resolve(null) : new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'))),
  };
}

/** The canvas's pixels follow its box (the drawing redrawn), so strokes land under the finger. */
function fitCanvas(canvas: HTMLCanvasElement, pad: SignaturePad): void {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const width = Math.round(canvas.offsetWidth * ratio);
  const height = Math.round(canvas.offsetHeight * ratio);
  if (width === 0 || height === 0 || (canvas.width === width && canvas.height === height)) return;
  const strokes = pad.toData();
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.scale(ratio, ratio);
  pad.clear();
  pad.fromData(strokes);
}
