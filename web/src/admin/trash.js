// The trash (/admin/trash; uploader role): what deletions took (GET /trash), each restorable until its purge time
// (POST /trash/{id}/restore) and, for an administrator, purged at once after a confirmation (DELETE /trash/{id}).
// The store keeps a deletion's UIDs, not its patient: its files (GET /trash/{id}, on demand) show the store paths.
// A correction's previous versions are a deletion too (level VERSION): restoring them undoes the correction.
import { api } from '../api.js';
import { h, notify, showError } from '../ui.js';
import { can } from '../session.js';
import { restore, restoredText } from '../trash.js';
import { confirmDialog } from './dialog.js';
import { formatTime } from './format.js';

const LEVELS = { STUDY: 'Study', SERIES: 'Series', INSTANCE: 'Instance', VERSION: 'Previous version (correction)' };

export async function renderTrash(box) {
  const list = h('div', { dataset: { test: 'trash-list' } });
  box.append(h('h2', {}, 'Trash'),
    h('p', { class: 'muted' }, 'Deleted studies, series and instances stay here, out of every query and retrieve,'
      + ' until their purge time; then the store removes their files in the background. Restore gives them back as'
      + ' they were.'),
    h('div', { class: 'row' }, h('button', { type: 'button', dataset: { test: 'trash-refresh' }, onclick: () => reload() },
      'Refresh')),
    list);

  async function reload() {
    let deletions;
    try {
      deletions = await api('/trash');
    } catch (e) {
      list.replaceChildren(h('p', { class: 'problem', dataset: { test: 'trash-problem' } }, e.message));
      list.dataset.state = 'error';
      return;
    }
    list.dataset.state = 'done';
    if (!deletions.length) {
      list.replaceChildren(h('p', { class: 'empty', dataset: { test: 'trash-empty' } }, 'The trash is empty.'));
      return;
    }
    // The store lists the oldest first; the latest deletion is the one looked for.
    list.replaceChildren(h('table', { class: 'grid trash', dataset: { test: 'trash-table' } },
      h('thead', {}, h('tr', {}, ['What', 'Instances', 'Deleted', 'By', 'Reason', 'Purge after', '']
        .map((t) => h('th', { class: t === 'Instances' ? 'num' : '' }, t)))),
      h('tbody', {}, deletions.slice().reverse().map((d) => row(d, reload)))));
  }
  await reload();
}

function row(d, reload) {
  const problem = h('div', { class: 'problem', dataset: { test: 'trash-row-problem' } });
  const files = h('details', { class: 'files', ontoggle: () => loadFiles() }, h('summary', {}, 'Files'));
  async function loadFiles() {
    if (!files.open || files.dataset.loaded) return;
    files.dataset.loaded = '1';
    try {
      const one = await api(`/trash/${encodeURIComponent(d.trashId)}`);
      files.append(h('ul', {}, (one.files ?? []).map((f) => h('li', {}, h('code', {}, f)))));
    } catch (e) {
      files.append(h('p', { class: 'problem' }, e.message));
    }
  }

  async function doRestore(button) {
    button.disabled = true;
    problem.textContent = '';
    try {
      notify(`${what(d)}: ${restoredText(await restore(d.trashId))}`, 'ok');
      reload();
    } catch (e) {
      button.disabled = false;
      problem.textContent = e.message;
    }
  }

  async function purge(button) {
    if (!await confirmDialog({ title: 'Purge now?', danger: true, confirm: 'Purge now',
      text: `${what(d)} (${d.instances} instance${d.instances === 1 ? '' : 's'}) is removed from the storage now,`
        + ' before its grace period ends. It cannot be restored afterwards.' })) return;
    button.disabled = true;
    problem.textContent = '';
    try {
      const o = await api(`/trash/${encodeURIComponent(d.trashId)}`, { method: 'DELETE' });
      notify(`${what(d)}: ${o.purged} file${o.purged === 1 ? '' : 's'} purged`
        + `${o.failed ? `, ${o.failed} to be tried again by the background purge` : ''}.`, o.failed ? 'error' : 'ok');
      reload();
    } catch (e) {
      button.disabled = false;
      problem.textContent = e.message;
      showError(e, 'Purge');
    }
  }

  return h('tr', { dataset: { test: 'trash-row', trash: d.trashId, study: d.StudyInstanceUID, level: d.level } },
    h('td', { class: 'uids' },
      h('div', {}, h('span', { class: 'badge' }, LEVELS[d.level] ?? d.level)),
      uid('Study', d.StudyInstanceUID), uid('Series', d.SeriesInstanceUID), uid('Instance', d.SOPInstanceUID), files),
    h('td', { class: 'num', dataset: { test: 'trash-instances' } }, d.instances),
    h('td', {}, formatTime(d.trashedAt)),
    h('td', { dataset: { test: 'trash-by' } }, d.trashedBy ?? ''),
    h('td', { class: 'reason', dataset: { test: 'trash-reason' } }, d.reason ?? h('span', { class: 'muted' }, '—')),
    h('td', { title: d.purgeAfter }, formatTime(d.purgeAfter)),
    h('td', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', dataset: { test: 'trash-restore' },
        title: d.level === 'VERSION' ? 'Undo the correction: the previous versions become the instances again, the'
          + ' corrected ones go to the trash' : 'Give it back as it was',
        onclick: (e) => doRestore(e.currentTarget) }, d.level === 'VERSION' ? 'Restore (undo)' : 'Restore'),
      can('admin') && h('button', { type: 'button', class: 'danger', dataset: { test: 'trash-purge' },
        onclick: (e) => purge(e.currentTarget) }, 'Purge now…'),
      problem));
}

function uid(label, value) {
  return value && h('div', { class: 'uid' }, h('span', { class: 'muted' }, `${label} `), h('code', {}, value));
}

function what(d) {
  if (d.level === 'VERSION') return `The previous version (correction) of study ${d.StudyInstanceUID}`;
  return `${LEVELS[d.level] ?? d.level} ${d.SOPInstanceUID ?? d.SeriesInstanceUID ?? d.StudyInstanceUID}`;
}
