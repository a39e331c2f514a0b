// Deleting a study from the browser (uploader role) and undoing it: a confirmation naming the study with an optional
// reason; the store's guard (409: too large a share of the store at once) shown in the store's words, with "Delete
// anyway" (force=true) for an administrator; afterwards a notice offering Undo (a restore from the trash) for a few
// seconds. The trash itself is the console's Trash tab (admin/trash.js).
import { api } from './api.js';
import { h, modal, notify, showError } from './ui.js';
import { can } from './session.js';
import { formatTime, formatDicomDate } from './admin/format.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Asks before deleting the study s = {uid, patientId, date, description, instances, series}, then deletes it.
 * Resolves the store's Deletion, or null when the user cancelled. Failures stay in the dialog, in the store's words.
 */
export function deleteStudyDialog(s) {
  return new Promise((resolve) => {
    const reason = h('input', { name: 'reason', maxlength: 256, autocomplete: 'off', dataset: { test: 'delete-reason' },
      placeholder: 'optional: kept with the deletion and in the audit trail' });
    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'delete-problem' } });
    const cancel = h('button', { type: 'button', dataset: { test: 'delete-cancel' } }, 'Cancel');
    const ok = h('button', { type: 'submit', class: 'danger', dataset: { test: 'delete-ok' } }, 'Delete');
    const force = h('button', { type: 'button', class: 'danger', hidden: true, dataset: { test: 'delete-force' },
      title: 'Delete it although the store\'s guard holds it (force=true, administrators only)' }, 'Delete anyway');
    const form = h('form', { onsubmit: (e) => { e.preventDefault(); send(false); } },
      h('h2', {}, 'Delete this study?'),
      h('dl', { class: 'study-summary', dataset: { test: 'delete-summary' } },
        h('dt', {}, 'Patient ID'), h('dd', {}, s.patientId || '—'),
        h('dt', {}, 'Study date'), h('dd', {}, formatDicomDate(s.date) || '—'),
        h('dt', {}, 'Description'), h('dd', {}, s.description || '—'),
        h('dt', {}, 'Instances'), h('dd', { dataset: { test: 'delete-instances' } },
          `${plural(s.instances ?? 0, 'instance')}${s.series ? ` in ${plural(s.series, 'series', 'series')}` : ''}`)),
      h('p', {}, 'It leaves the study list, the viewer and every DICOM query at once. Until the store purges it (after'
        + ' its grace period) it stays in the trash, where it can be restored.'),
      h('label', { class: 'reason' }, 'Reason', reason),
      problem,
      h('div', { class: 'buttons' }, cancel, force, ok));
    const close = modal('delete-dialog', form, resolve);

    async function send(forced) {
      for (const b of [ok, force, cancel]) b.disabled = true;
      problem.textContent = '';
      const q = new URLSearchParams();
      if (reason.value.trim()) q.set('reason', reason.value.trim());
      if (forced) q.set('force', 'true');
      try {
        const query = q.toString();
        const deletion = await api(`/dicomweb/studies/${encodeURIComponent(s.uid)}${query ? `?${query}` : ''}`,
          { method: 'DELETE' });
        close(deletion);
        return;
      } catch (e) {
        problem.textContent = e.message;
        if (e.status === 409) {
          // The guard: deleting again the same way only meets it again.
          ok.hidden = true;
          force.hidden = !can('admin');
          if (!can('admin')) problem.append(h('br'), 'Only an administrator can delete this much at once.');
        }
      }
      for (const b of [ok, force, cancel]) b.disabled = false;
    }

    cancel.onclick = () => close(null);
    force.onclick = () => send(true);
    reason.focus();
  });
}

/** What a restore did, in words: "3 instances restored", with those replaced since and those that failed. */
export function restoredText(o) {
  return `${plural(o.restored, 'instance')} restored`
    + (o.replaced ? `, ${o.replaced} written again since (the new files stay)` : '')
    + (o.failed ? `, ${o.failed} could not be restored (see the store's log)` : '') + '.';
}

/** Restores a deletion from the trash; → the store's outcome {trashId, restored, purged, replaced, failed}. */
export function restore(trashId) {
  return api(`/trash/${encodeURIComponent(trashId)}/restore`, { method: 'POST' });
}

/** The notice after a deletion: what went to the trash until when, and Undo for a few seconds. */
export function deletedNotice(deletion, what, onRestored) {
  const undo = h('button', { type: 'button', dataset: { test: 'delete-undo' }, onclick: async () => {
    undo.disabled = true;
    try {
      const outcome = await restore(deletion.trashId);
      item.remove();
      notify(`${what}: ${restoredText(outcome)}`, outcome.failed ? 'error' : 'ok');
      onRestored?.(outcome);
    } catch (e) {
      undo.disabled = false;
      showError(e, 'Undo');
    }
  } }, 'Undo');
  const item = notify(h('span', { dataset: { test: 'delete-notice', trash: deletion.trashId } },
    `${what} deleted: ${plural(deletion.instances, 'instance')} in the trash until ${formatTime(deletion.purgeAfter)}. `,
    undo), 'ok', { keep: 10000 });
  return item;
}
