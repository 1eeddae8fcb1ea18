/**
 * The Failed step of the driver page: a reason from the list (decisions.md, "The live day") and
 * text, which "Other" needs; the service checks the same.
 */
import { h } from './dom.js';
import { FAILURE_REASONS } from './failure-reasons.js';
import type { DriverStopView, FailureReasonCode } from './types.js';

export interface FailureStepActions {
  save(failure: { reason_code: FailureReasonCode; reason?: string }): void;
  cancel(): void;
}

export function failureStep(stop: DriverStopView, actions: FailureStepActions): HTMLFormElement {
  const id = `reason-${stop.stop_id}`;
  const choices = (Object.entries(FAILURE_REASONS) as [FailureReasonCode, string][]).map(([code, label]) => {
    const input = h('input', { type: 'radio', id: `${id}-${code}`, name: `${id}-code`, value: code, required: true });
    return h('label', { class: 'reason-choice', for: input.id }, input, ' ', label);
  });
  const details = h('input', { id: `${id}-text`, name: 'reason', maxlength: 500, autocomplete: 'off', 'aria-describedby': `${id}-hint` });
  const form = h(
    'form',
    { class: 'failure-form' },
    h('fieldset', {}, h('legend', {}, 'Reason'), h('div', { class: 'reason-choices' }, ...choices)),
    h('label', { for: details.id }, 'Details'),
    details,
    h('p', { class: 'field-hint', id: `${id}-hint` }, 'Optional, except for Other.'),
    h('div', { class: 'stop-actions' }, h('button', { type: 'submit', class: 'button danger big' }, 'Save'), cancelButton(actions)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const code = form.querySelector<HTMLInputElement>('input[type=radio]:checked')?.value as FailureReasonCode | undefined;
    const reason = details.value.trim();
    if (code === undefined) return;
    if (code === 'other' && reason === '') {
      details.setCustomValidity('Say what happened');
      details.reportValidity();
      return;
    }
    actions.save({ reason_code: code, ...(reason !== '' ? { reason } : {}) });
  });
  details.addEventListener('input', () => details.setCustomValidity(''));
  queueMicrotask(() => form.querySelector<HTMLInputElement>('input[type=radio]')?.focus());
  return form;
}

function cancelButton(actions: FailureStepActions): HTMLButtonElement {
  const element = h('button', { type: 'button', class: 'button big' }, 'Cancel');
  element.addEventListener('click', () => actions.cancel());
  return element;
}
