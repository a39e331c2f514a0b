// A confirmation before anything that cannot be undone (delete an account, remove a plugin, rebuild the index):
// a modal <dialog> saying what will happen, with the safe choice focused.
import { h, modal } from '../ui.js';

/** Resolves true when the user confirms. */
export function confirmDialog({ title, text, confirm = 'OK', danger = false }) {
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', dataset: { test: 'confirm-cancel' } }, 'Cancel');
    const ok = h('button', { type: 'button', class: danger ? 'danger' : 'primary', dataset: { test: 'confirm-ok' } }, confirm);
    const close = modal('confirm-dialog', [h('h2', {}, title), h('p', {}, text),
      h('div', { class: 'buttons' }, cancel, ok)], resolve, { escaped: false });
    cancel.onclick = () => close(false);
    ok.onclick = () => close(true);
    cancel.focus();
  });
}
