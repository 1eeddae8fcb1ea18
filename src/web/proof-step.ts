/**
 * The Done step of the driver page (decisions.md, "The live day"): a photo from the camera, the
 * recipient's signature and name, and what the project's `settings.proof` requires, said before
 * the driver taps "Mark done" and checked then with a message next to the field (the service
 * checks again). The photo is made small on the phone before anything is kept or sent.
 */
import { h } from './dom.js';
import { downscalePhoto } from './photo-downscale.js';
import { signatureField } from './signature-field.js';
import type { ProofBlobs } from './proof-files-db.js';
import type { DriverStopView, ProofSetting } from './types.js';

export interface DoneProof extends ProofBlobs {
  recipient?: string;
}

export interface ProofStepActions {
  save(proof: DoneProof): void;
  cancel(): void;
}

const REQUIREMENT: Record<ProofSetting, string> = {
  none: 'A photo, a signature and the name are optional.',
  photo: 'Required: a photo of the delivery.',
  signature: 'Required: the recipient’s signature.',
  photo_or_signature: 'Required: a photo of the delivery or the recipient’s signature.',
};

export function proofStep(stop: DriverStopView, required: ProofSetting, actions: ProofStepActions): HTMLFormElement {
  const id = `proof-${stop.stop_id}`;
  const photo = h('input', {
    type: 'file',
    id: `${id}-photo`,
    name: 'photo',
    accept: 'image/*',
    capture: 'environment',
    'aria-describedby': `${id}-photo-hint`,
  });
  const preview = h('img', { class: 'photo-preview', alt: 'The photo taken', hidden: true });
  photo.addEventListener('change', () => showPreview(photo, preview));
  const signature = signatureField(`${id}-signature`);
  const recipient = h('input', { id: `${id}-recipient`, name: 'recipient', maxlength: 200, autocomplete: 'off' });
  const problem = h('p', { class: 'field-error', id: `${id}-error`, role: 'alert', hidden: true });
  const save = h('button', { type: 'submit', class: 'button primary big' }, 'Mark done');
  const form = h(
    'form',
    { class: 'proof-form', 'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-required` },
    h('h3', { id: `${id}-title`, tabindex: -1 }, 'Proof of delivery'),
    h('p', { id: `${id}-required`, class: required === 'none' ? 'proof-required muted' : 'proof-required' }, REQUIREMENT[required]),
    h(
      'div',
      { class: 'field' },
      h('label', { for: photo.id }, 'Photo'),
      photo,
      h('p', { class: 'field-hint', id: `${id}-photo-hint` }, 'Opens the camera. Made smaller before sending.'),
      preview,
    ),
    signature.element,
    h('div', { class: 'field' }, h('label', { for: recipient.id }, 'Recipient name'), recipient),
    problem,
    h('div', { class: 'stop-actions' }, save, cancelButton(actions)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = photo.files?.[0];
    const missing = missingProof(required, chosen !== undefined, !signature.isEmpty());
    if (missing !== null) return showProblem(problem, missing);
    save.disabled = true;
    save.textContent = chosen ? 'Preparing the photo…' : 'Mark done';
    void collect(chosen, signature.toBlob(), recipient.value.trim()).then(
      (proof) => actions.save(proof),
      (error: unknown) => {
        save.disabled = false;
        save.textContent = 'Mark done';
        showProblem(problem, (error as Error).message);
      },
    );
  });
  // The step opens where the driver tapped: its heading takes the focus (a screen reader says where it is), the form shows whole.
  queueMicrotask(() => {
    form.querySelector<HTMLElement>('h3')?.focus({ preventScroll: true });
    form.scrollIntoView({ block: 'nearest' });
  });
  return form;
}

/** What the setting asks for and the driver has not given, in their words; null when nothing is missing. */
export function missingProof(required: ProofSetting, hasPhoto: boolean, hasSignature: boolean): string | null {
  if (required === 'photo' && !hasPhoto) return 'Take a photo of the delivery first: this project requires one.';
  if (required === 'signature' && !hasSignature) return 'Ask the recipient to sign first: this project requires a signature.';
  if (required === 'photo_or_signature' && !hasPhoto && !hasSignature) {
    return 'Take a photo or ask the recipient to sign first: this project requires one of them.';
  }
  return null;
}

async function collect(photo: File | undefined, signature: Promise<Blob | null>, recipient: string): Promise<DoneProof> {
  const [small, drawn] = await Promise.all([photo ? downscalePhoto(photo) : undefined, signature]);
  return { ...(small ? { photo: small } : {}), ...(drawn ? { signature: drawn } : {}), ...(recipient ? { recipient } : {}) };
}

/** The chosen photo under the field, so the driver sees it is the right one before Mark done. */
function showPreview(input: HTMLInputElement, preview: HTMLImageElement): void {
  if (preview.src) URL.revokeObjectURL(preview.src);
  const file = input.files?.[0];
  preview.hidden = file === undefined;
  if (file) preview.src = URL.createObjectURL(file);
  else preview.removeAttribute('src');
}

function showProblem(problem: HTMLElement, message: string): void {
  problem.textContent = message;
  problem.hidden = false;
}

function cancelButton(actions: ProofStepActions): HTMLButtonElement {
  const element = h('button', { type: 'button', class: 'button big' }, 'Cancel');
  element.addEventListener('click', () => actions.cancel());
  return element;
}
