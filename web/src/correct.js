// Correcting a study's patient and study attributes from the study list (uploader role): a modal <dialog> prefilled
// with what the store holds (GET /index/studies?StudyInstanceUID=), sending only the changed values with a reason as a
// job (POST /jobs kind "correct"), followed to its end. The store checks every value and says what is wrong; the
// previous versions go to the trash, where Restore undoes the correction.
import { h, modal, notify } from './ui.js';
import { api } from './api.js';
import { submitJob, watchJob, jobLine, resultOf } from './admin/jobs.js';

/** The attributes a correction may change, with their longest value (the store's Correction.ATTRIBUTES). */
const FIELDS = [
  ['Patient', [['PatientID', 'Patient ID', 64], ['IssuerOfPatientID', 'Issuer of Patient ID', 64],
    ['PatientName', 'Patient name', 64, 'Family^Given'], ['PatientBirthDate', 'Birth date', 8, 'YYYYMMDD'],
    ['PatientSex', 'Sex', 1]]],
  ['Study', [['AccessionNumber', 'Accession', 16], ['StudyDescription', 'Description', 64],
    ['StudyDate', 'Study date', 8, 'YYYYMMDD'], ['StudyTime', 'Study time', 16, 'HHMMSS'],
    ['ReferringPhysicianName', 'Referring physician', 64, 'Family^Given'], ['StudyID', 'Study ID', 16]]],
];

/** The changed values: what differs from the store's, trimmed (a cleared field is sent, for the store to refuse). */
function changedValues(inputs, held) {
  const changed = {};
  for (const [keyword, input] of Object.entries(inputs)) {
    const v = input.value.trim();
    if (v !== (held[keyword] ?? '')) changed[keyword] = v;
  }
  return changed;
}

/** Opens the dialog for the study uid; resolves the finished job's result, or null when nothing was corrected. */
export function correctDialog(uid, what) {
  return new Promise((resolve) => {
    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'correct-problem' } });
    const progress = h('div', { class: 'job-status', dataset: { test: 'correct-progress' } });
    const reason = h('input', { name: 'reason', maxlength: 256, autocomplete: 'off', dataset: { test: 'correct-reason' },
      placeholder: 'why: kept in the audit trail and the trash' });
    const inputs = {};
    const fieldsets = FIELDS.map(([legend, fields]) => h('fieldset', {}, h('legend', {}, legend),
      fields.map(([keyword, label, max, hint]) => {
        inputs[keyword] = keyword === 'PatientSex'
          ? h('select', { name: keyword, dataset: { test: `correct-${keyword}` } },
            [['', '—'], ['M', 'M (male)'], ['F', 'F (female)'], ['O', 'O (other)']]
              .map(([v, t]) => h('option', { value: v }, t)))
          : h('input', { name: keyword, maxlength: max, placeholder: hint, autocomplete: 'off', disabled: true,
            dataset: { test: `correct-${keyword}` } });
        return h('label', {}, label, inputs[keyword]);
      })));
    const cancel = h('button', { type: 'button', dataset: { test: 'correct-cancel' } }, 'Cancel');
    const ok = h('button', { type: 'submit', class: 'primary', disabled: true, dataset: { test: 'correct-ok' } },
      'Correct');
    const form = h('form', { class: 'correct', onsubmit: (e) => { e.preventDefault(); send(); } },
      h('h2', {}, `Correct ${what}`),
      h('p', { class: 'muted' }, 'Every instance of the study is written again with the new values; its images stay'
        + ' as they are. The previous versions go to the trash: restoring them there undoes the correction.'),
      h('div', { class: 'correct-fields' }, fieldsets),
      h('label', { class: 'reason' }, 'Reason', reason),
      problem, progress,
      h('div', { class: 'buttons' }, cancel, ok));
    let held = {};
    let watch = null;
    // Escape while the job runs does nothing: a running correction is not cancelled part-way
    const shut = modal('correct-dialog', form, resolve, { mayEscape: () => !cancel.disabled });
    const close = (answer) => {
      watch?.stop();
      shut(answer);
    };

    async function load() {
      const [study] = await api(`/index/studies?StudyInstanceUID=${encodeURIComponent(uid)}`);
      if (!study) throw new Error('The store no longer holds this study.');
      held = study;
      for (const [keyword, input] of Object.entries(inputs)) {
        input.value = study[keyword] ?? '';
        input.disabled = false;
      }
      ok.disabled = false;
      form.dataset.state = 'loaded';
    }

    async function send() {
      problem.textContent = '';
      const changed = changedValues(inputs, held);
      if (!Object.keys(changed).length) {
        problem.textContent = 'Nothing changed: change a value to correct it.';
        return;
      }
      const params = { StudyInstanceUID: uid, ...changed };
      if (reason.value.trim()) params.reason = reason.value.trim();
      const controls = [ok, cancel, reason, ...Object.values(inputs)];
      controls.forEach((c) => { c.disabled = true; });
      try {
        const job = await submitJob('correct', params);
        // a running correction is not cancelled part-way: the dialog stays until it ends
        watch = watchJob(job.id, (j) => progress.replaceChildren(jobLine(j)), { every: 500 });
        const end = await watch.done;
        if (end.state === 'DONE') {
          const r = resultOf(end);
          notify(h('span', { dataset: { test: 'correct-notice' } }, `${what[0].toUpperCase()}${what.slice(1)}: ${r.corrected} instance`
            + `${r.corrected === 1 ? '' : 's'} corrected (${Object.keys(changed).join(', ')}). The previous versions are`
            + ' in the trash, where Restore undoes the correction.'), 'ok', { keep: 10000 });
          close(r);
          return;
        }
        problem.textContent = `The correction ${end.state === 'CANCELLED' ? 'was cancelled' : 'failed'}: ${end.result}`;
      } catch (e) {
        problem.textContent = e.message;
      } finally {
        watch = null;
      }
      controls.forEach((c) => { c.disabled = false; });
    }

    cancel.onclick = () => close(null);
    load().catch((e) => { problem.textContent = e.message; });
  });
}
