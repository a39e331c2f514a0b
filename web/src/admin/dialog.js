// A confirmation before anything that cannot be undone (delete an account, remove a plugin, rebuild the index):
// a modal <dialog> saying what will happen, with the safe choice focused.
import { h } from '../ui.js';

/** Resolves true when the user confirms. */
export function confirmDialog({ title, text, confirm = 'OK', danger = false }) {
  return new Promise((resolve) => {
    const cancel = h('button', { type: 'button', dataset: { test: 'confirm-cancel' } }, 'Cancel');
    const ok = h('button', { type: 'button', class: danger ? 'danger' : 'primary', dataset: { test: 'confirm-ok' } }, confirm);
    const dialog = h('dialog', { class: 'confirm', dataset: { test: 'confirm-dialog' } },
      h('h2', {}, title), h('p', {}, text), h('div', { class: 'buttons' }, cancel, ok));
    const close = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    cancel.onclick = () => close(false);
    ok.onclick = () => close(true);
    dialog.addEventListener('cancel', (e) => { e.preventDefault(); close(false); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
