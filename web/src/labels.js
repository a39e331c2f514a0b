// A study's labels (what access by project matches: a project sees the studies labelled with its name), shown and
// changed by an administrator from the study list: a modal <dialog> with the labels as chips, each removable, and a
// field to add one. Each change is sent at once (PUT/DELETE /index/studies/{uid}/labels/{label}).
import { h, modal, showError } from './ui.js';
import { api } from './api.js';

const LABEL = /^[A-Za-z0-9_-]{1,64}$/;

/** Opens the dialog for a study; resolves when it is closed. */
export function labelsDialog(uid, what) {
  return new Promise((resolve) => {
    const chips = h('ul', { class: 'labels', dataset: { test: 'labels-list' } });
    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'labels-problem' } });
    const input = h('input', { name: 'label', placeholder: 'cardiology', autocomplete: 'off', maxlength: 64,
      dataset: { test: 'labels-input' } });
    const path = (label) => `/index/studies/${encodeURIComponent(uid)}/labels${label ? `/${encodeURIComponent(label)}` : ''}`;

    async function load() {
      const labels = await api(path());
      chips.replaceChildren(...(labels.length ? labels.map((label) => h('li', { dataset: { test: 'label', label } },
        label, h('button', { type: 'button', title: `Take ${label} off this study`, dataset: { test: 'label-remove' },
          onclick: () => change('DELETE', label) }, '×')))
        : [h('li', { class: 'muted' }, 'No label: only administrators see this study when access by project is on.')]));
      chips.dataset.state = 'done';
    }
    async function change(method, label) {
      problem.textContent = '';
      chips.dataset.state = 'busy';
      try {
        await api(path(label), { method });
        await load();
      } catch (e) {
        problem.textContent = e.message;
        chips.dataset.state = 'done';
      }
    }
    const form = h('form', { class: 'add-label', onsubmit: (e) => {
      e.preventDefault();
      const label = input.value.trim();
      if (!LABEL.test(label)) {
        problem.textContent = 'A label is 1 to 64 letters, digits, _ or -.';
        return;
      }
      input.value = '';
      change('PUT', label);
    } }, input, h('button', { type: 'submit', dataset: { test: 'labels-add' } }, 'Add'));
    const done = h('button', { type: 'button', class: 'primary', dataset: { test: 'labels-close' } }, 'Close');
    const close = modal('labels-dialog', [h('h2', {}, `Labels of ${what}`), chips, form, problem,
      h('div', { class: 'buttons' }, done)], resolve);
    done.onclick = () => close();
    input.focus();
    load().catch((e) => { problem.textContent = e.message; showError(e, 'Labels'); });
  });
}
