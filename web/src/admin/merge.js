// Merging two patients (the Index and jobs tab; admin role): every study of the source patient is given the target's
// identity (POST /jobs kind "merge-patients": sourcePatientID [sourceIssuerOfPatientID], the target's PatientID
// [IssuerOfPatientID]; the store takes the target's name, birth date and sex from its record). Both patients are
// looked up first (GET /index/patients) and named in the confirmation; the job is followed to its end.
import { api } from '../api.js';
import { h, notify } from '../ui.js';
import { confirmDialog } from './dialog.js';
import { submitJob, watchJob, jobLine, resultOf } from './jobs.js';
import { formatName } from './format.js';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The store's record of a patient (exact Patient ID and, when given, issuer), or null. */
async function patient(id, issuer) {
  const found = await api(`/index/patients?PatientID=${encodeURIComponent(id)}`);
  return found.find((p) => p.PatientID === id && (!issuer || p.IssuerOfPatientID === issuer)) ?? null;
}

function named(p, id) {
  if (!p) return `${id} (a patient the store holds no study of)`;
  return `${formatName(p.PatientName) || 'no name'} (${p.PatientID}${p.IssuerOfPatientID ? `, ${p.IssuerOfPatientID}` : ''})`;
}

/** The section: a form, the job's progress and its outcome; onDone() after each merge (to refresh the jobs). */
export function mergeSection(onDone) {
  const input = (name, placeholder) => h('input', { name, placeholder, autocomplete: 'off', maxlength: 64,
    dataset: { test: `merge-${name}` } });
  const source = input('source', 'TEMP-0042');
  const sourceIssuer = input('sourceIssuer', 'optional');
  const target = input('target', 'P-1234');
  const targetIssuer = input('targetIssuer', 'optional');
  const reason = h('input', { name: 'reason', maxlength: 256, autocomplete: 'off', dataset: { test: 'merge-reason' },
    placeholder: 'why: kept in the audit trail and the trash' });
  const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'merge-problem' } });
  const status = h('div', { class: 'job-status', dataset: { test: 'merge-status' } });
  const go = h('button', { type: 'submit', class: 'danger', dataset: { test: 'merge-submit' } }, 'Merge…');
  let watch = null;

  async function merge() {
    problem.textContent = '';
    const [s, si, t, ti] = [source, sourceIssuer, target, targetIssuer].map((i) => i.value.trim());
    if (!s || !t) {
      problem.textContent = 'Name both patients: the one whose studies move, and the one they join.';
      return;
    }
    go.disabled = true;
    try {
      const [from, to] = await Promise.all([patient(s, si), patient(t, ti)]);
      if (!from) throw new Error(`The store holds no study of patient ${s}${si ? ` (${si})` : ''}.`);
      if (!await confirmDialog({ title: 'Merge these patients?', confirm: 'Merge', danger: true,
        text: `${plural(from.NumberOfPatientRelatedStudies, 'study', 'studies')} of ${named(from, s)}`
          + ` ${from.NumberOfPatientRelatedStudies === 1 ? 'becomes a study' : 'become studies'} of ${named(to, t)}:`
          + ' every instance is written again with that patient\'s identity. The previous versions go'
          + ' to the trash, one deletion per study; restoring them there undoes the merge of that study.' })) return;
      const params = { sourcePatientID: s, PatientID: t };
      if (si) params.sourceIssuerOfPatientID = si;
      if (ti) params.IssuerOfPatientID = ti;
      if (reason.value.trim()) params.reason = reason.value.trim();
      const job = await submitJob('merge-patients', params);
      watch = watchJob(job.id, (j) => status.replaceChildren(jobLine(j)), { every: 500 });
      const end = await watch.done;
      if (end.state !== 'DONE') throw new Error(`The merge ${end.state === 'CANCELLED' ? 'was cancelled' : 'failed'}: ${end.result}`);
      const r = resultOf(end);
      status.append(h('p', { dataset: { test: 'merge-report' } }, `${plural(r.studies.length, 'study', 'studies')}`
        + ` (${plural(r.corrected, 'instance')}) of ${s} now belong to ${t}; the previous versions are in the trash.`));
      notify(`Patient ${s} merged into ${t}.`, 'ok');
      [source, sourceIssuer, target, targetIssuer, reason].forEach((i) => { i.value = ''; });
      onDone?.();
    } catch (e) {
      problem.textContent = e.message;
    } finally {
      watch = null;
      go.disabled = false;
    }
  }

  const element = h('section', { class: 'merge', dataset: { test: 'merge' } },
    h('h3', {}, 'Merge patients'),
    h('p', { class: 'muted' }, 'When one person was registered twice (an emergency ID, a typing error), give every'
      + ' study of one patient the identity of the other: the Patient ID and issuer, and the name, birth date and sex'
      + ' the store holds for the patient they join.'),
    h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); merge(); } },
      h('label', {}, 'Studies of patient ', source), h('label', {}, 'issuer ', sourceIssuer),
      h('label', {}, 'join patient ', target), h('label', {}, 'issuer ', targetIssuer),
      h('label', {}, 'Reason ', reason), go),
    problem, status);
  return { element, stop: () => watch?.stop() };
}
