/**
 * The editor's modal dialog (the browser's <dialog>: focus stays inside, Escape closes it, focus
 * returns to the control that opened it) and the form it shows: one labelled input per field,
 * each with its hint and the service's message for it once a save was refused.
 */
import { button, h, type Child } from './dom.js';
import type { FieldSpec, FormValues } from './edit-fields.js';

let dialogs = 0;

export class Modal {
  readonly element: HTMLDialogElement;
  private readonly body: HTMLElement;
  private readonly opener: Element | null = document.activeElement;

  constructor(title: string) {
    const titleId = `dialog-title-${++dialogs}`;
    this.body = h('div', { class: 'dialog-body' });
    this.element = h(
      'dialog',
      { class: 'editor-dialog', 'aria-labelledby': titleId },
      h(
        'div',
        { class: 'dialog-head' },
        h('h2', { id: titleId }, title),
        button('Close', () => this.close(), { class: 'button small' }),
      ),
      this.body,
    );
    this.element.addEventListener('close', () => {
      this.element.remove();
      this.returnFocus();
    });
    document.body.append(this.element);
    this.element.showModal();
  }

  /**
   * Back to the control that opened the dialog; after a save the tables are drawn anew, so to
   * the control with the same accessible name in them, if it is still there.
   */
  private returnFocus(): void {
    const opener = this.opener;
    if (!(opener instanceof HTMLElement)) return;
    const label = opener.getAttribute('aria-label');
    const again =
      opener.isConnected || label === null ? opener : document.querySelector<HTMLElement>(`[aria-label="${CSS.escape(label)}"]`);
    again?.focus();
  }

  show(...children: Child[]): void {
    this.body.replaceChildren(...children.filter(isShown).map((child) => (typeof child === 'number' ? String(child) : child)));
    this.body.querySelector<HTMLElement>('input, textarea, button')?.focus();
  }

  close(): void {
    if (this.element.open) this.element.close();
  }
}

function isShown(child: Child): child is Node | string | number {
  return child !== null && child !== undefined && child !== false;
}

export interface EditForm {
  element: HTMLFormElement;
  values(): FormValues;
  /** Shows each message next to its field (`general`: those no field shows, above the buttons). */
  showErrors(byField: Map<string, string[]>, general: string[]): void;
  setBusy(busy: boolean): void;
}

export function editForm(
  fields: FieldSpec[],
  initial: FormValues,
  submitLabel: string,
  onSubmit: () => void,
  onCancel: () => void,
): EditForm {
  const inputs = new Map<string, FieldInput>();
  const errors = new Map<string, HTMLElement>();
  const general = h('div', { class: 'alert', role: 'alert', hidden: true });
  const rows = fields.map((field) => fieldRow(field, initial, inputs, errors));
  const save = h('button', { type: 'submit', class: 'button primary' }, submitLabel);
  const form = h(
    'form',
    { class: 'edit-form', novalidate: true },
    h('div', { class: 'field-grid' }, ...rows),
    general,
    h('div', { class: 'actions' }, save, button('Cancel', onCancel, { class: 'button' })),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSubmit();
  });
  return {
    element: form,
    values: () =>
      Object.fromEntries(
        [...inputs].map(([key, input]) => [
          key,
          input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value,
        ]),
      ),
    showErrors: (byField, messages) => {
      for (const [key, box] of errors) {
        const found = byField.get(key) ?? [];
        box.textContent = found.join('; ');
        box.hidden = found.length === 0;
        inputs.get(key)?.setAttribute('aria-invalid', String(found.length > 0));
      }
      general.textContent = messages.join(' ');
      general.hidden = messages.length === 0;
      const firstWrong = fields.find((field) => byField.has(field.key));
      if (firstWrong) inputs.get(firstWrong.key)?.focus();
    },
    setBusy: (busy) => {
      save.disabled = busy;
      save.textContent = busy ? 'Saving…' : submitLabel;
    },
  };
}

type FieldInput = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** One labelled input with its hint and its error line, both tied to it by aria-describedby. */
function fieldRow(field: FieldSpec, initial: FormValues, inputs: Map<string, FieldInput>, errors: Map<string, HTMLElement>): HTMLElement {
  const id = `edit-${field.key}`;
  const error = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  errors.set(field.key, error);
  const hint = field.hint ? h('p', { class: 'field-hint', id: `${id}-hint` }, field.hint) : null;
  const describedBy = [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
  if (field.kind === 'checkbox') {
    const input = h('input', {
      type: 'checkbox',
      id,
      name: field.key,
      'aria-describedby': describedBy,
      checked: initial[field.key] === true,
    });
    inputs.set(field.key, input);
    return h('div', { class: 'field field-check' }, input, h('label', { for: id }, field.label), hint, error);
  }
  const value = String(initial[field.key] ?? '');
  const input =
    field.kind === 'select'
      ? h(
          'select',
          { id, name: field.key, 'aria-describedby': describedBy },
          ...(field.options ?? []).map(([option, label]) => h('option', { value: option, selected: option === value }, label)),
        )
      : field.kind === 'textarea'
        ? h('textarea', { id, name: field.key, rows: 2, 'aria-describedby': describedBy }, value)
        : h('input', { type: 'text', id, name: field.key, value, autocomplete: 'off', 'aria-describedby': describedBy });
  inputs.set(field.key, input);
  return h('div', { class: `field field-${field.key}` }, h('label', { for: id }, field.label), input, hint, error);
}
