// Share links of a study, made and revoked from the study list (uploader role): a modal <dialog> that makes a link
// (valid for a chosen time, with an optional note saying who it is for), shows it to copy, and lists the study's
// links with their state and a Revoke button. POST /shares, GET /shares?study=, DELETE /shares/{id}.
import { h, modal, showError } from './ui.js';
import { api } from './api.js';

const VALID = [['24', '1 day'], ['168', '7 days'], ['720', '30 days']];

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '');

/** Opens the dialog for a study; resolves when it is closed. */
export function shareDialog(uid, what) {
  return new Promise((resolve) => {
    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'share-problem' } });
    const made = h('div', { class: 'share-made', dataset: { test: 'share-made' } });
    const list = h('ul', { class: 'shares', dataset: { test: 'share-list' } });
    const hours = h('select', { name: 'hours', dataset: { test: 'share-hours' } },
      VALID.map(([value, label]) => h('option', { value, selected: value === '168' }, label)));
    const note = h('input', { name: 'note', placeholder: 'for whom (optional)', maxlength: 256, autocomplete: 'off',
      dataset: { test: 'share-note' } });

    async function load() {
      const shares = await api(`/shares?study=${encodeURIComponent(uid)}`);
      list.replaceChildren(...(shares.length ? shares.map((s) => h('li', { dataset: { test: 'share', id: s.id, live: String(s.live) } },
        h('span', {}, s.live ? `until ${when(s.expires)}` : s.revoked ? `revoked ${when(s.revoked)} by ${s.revokedBy}` : `expired ${when(s.expires)}`),
        s.note && h('span', { class: 'muted' }, ` · ${s.note}`),
        h('span', { class: 'muted' }, ` · by ${s.createdBy} · opened ${s.opens}×`),
        s.live && h('button', { type: 'button', class: 'danger', dataset: { test: 'share-revoke' },
          title: 'The link stops opening the study, and whoever has it open loses it', onclick: () => revoke(s.id) }, 'Revoke')))
        : [h('li', { class: 'muted' }, 'No share link for this study yet.')]));
      list.dataset.state = 'done';
    }
    async function revoke(id) {
      problem.textContent = '';
      try {
        await api(`/shares/${encodeURIComponent(id)}`, { method: 'DELETE' });
        made.replaceChildren();
        await load();
      } catch (e) {
        problem.textContent = e.message;
      }
    }
    const form = h('form', { class: 'new-share', onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      try {
        const share = await api('/shares', { method: 'POST', json: { study: uid, hours: Number(hours.value), note: note.value.trim() || undefined } });
        const field = h('input', { readonly: true, value: share.url, dataset: { test: 'share-url' }, onfocus: (ev) => ev.target.select() });
        made.replaceChildren(h('p', {}, `Anyone with this link can open this study, read only, until ${when(share.expires)}:`), field,
          h('button', { type: 'button', dataset: { test: 'share-copy' }, onclick: () => navigator.clipboard?.writeText(share.url).catch(() => field.select()) }, 'Copy'));
        note.value = '';
        await load();
      } catch (err) {
        problem.textContent = err.message;
      }
    } }, h('label', {}, 'Valid for ', hours), note, h('button', { type: 'submit', dataset: { test: 'share-create' } }, 'Make a link'));
    const done = h('button', { type: 'button', class: 'primary', dataset: { test: 'share-close' } }, 'Close');
    const close = modal('share-dialog', [h('h2', {}, `Share ${what}`), form, made, h('h3', {}, 'Links'), list,
      problem, h('div', { class: 'buttons' }, done)], resolve);
    done.onclick = () => close();
    load().catch((e) => { problem.textContent = e.message; showError(e, 'Share links'); });
  });
}
