// The DICOM index: rebuild it from the stored files as a background job (POST /jobs kind "index-rebuild"; any node
// runs it, another takes it over if that node dies), followed to its report; merging two patients (admin/merge.js);
// and the recent jobs of every kind.
import { api } from '../api.js';
import { h, notify } from '../ui.js';
import { confirmDialog } from './dialog.js';
import { submitJob, watchJob, jobLine, jobsTable, resultOf, cancelJob } from './jobs.js';
import { formatDuration } from './format.js';
import { mergeSection } from './merge.js';

export async function renderIndex(box) {
  const status = h('div', { class: 'job-status', dataset: { test: 'rebuild-status' } });
  const jobs = h('div');
  const rebuild = h('button', { type: 'button', class: 'primary', dataset: { test: 'rebuild' } }, 'Rebuild the index');
  let watch = null;
  let timer = null;
  let stopped = false;
  const merge = mergeSection(() => refreshJobs());

  rebuild.onclick = async () => {
    if (!await confirmDialog({ title: 'Rebuild the index?', confirm: 'Rebuild',
      text: 'Every stored object is read again and the index (patients, studies, series, instances and their '
        + 'metadata) is made anew from them; entries whose file is gone are removed. It runs in the background; '
        + 'queries and uploads go on meanwhile. On a large store this takes a while.' })) return;
    rebuild.disabled = true;
    try {
      const job = await submitJob('index-rebuild');
      watch = watchJob(job.id, (j) => { status.replaceChildren(jobLine(j)); });
      const end = await watch.done;
      status.append(report(end));
      if (end.state === 'DONE') notify('The index was rebuilt.', 'ok');
      refreshJobs();
    } catch (e) {
      status.replaceChildren(h('p', { class: 'problem' }, e.message));
    } finally {
      rebuild.disabled = false;
    }
  };

  async function refreshJobs() {
    clearTimeout(timer); // one polling chain, also when a finished rebuild asks for a refresh
    try {
      jobs.replaceChildren(jobsTable(await api('/jobs?limit=20'), { onCancel: cancel }));
    } catch (e) {
      jobs.replaceChildren(h('p', { class: 'problem' }, e.message));
    }
    if (!stopped) timer = setTimeout(refreshJobs, 5000);
  }

  async function cancel(job) {
    if (!await confirmDialog({ title: `Cancel the ${job.kind} job?`, confirm: 'Cancel the job', danger: true,
      text: job.state === 'QUEUED' ? 'It has not started and will not run.'
        : 'It stops at its next step; what it wrote is removed (its result will say what).' })) return;
    try {
      const j = await cancelJob(job.id);
      notify(j.state === 'CANCELLED' ? 'The job was cancelled.' : 'The job is being cancelled.', 'ok');
    } catch (e) {
      notify(e.message, 'error');
    }
    refreshJobs();
  }

  box.append(h('h2', {}, 'Index'),
    h('p', {}, 'The stored objects are the truth; the index is what queries, QIDO-RS, C-FIND and the viewers read. '
      + 'Rebuild it after files were changed behind the store\'s back, or to give an older index the stored metadata.'),
    h('div', { class: 'row' }, rebuild), status, merge.element,
    h('h3', {}, 'Recent jobs'), jobs);
  await refreshJobs();
  return () => { stopped = true; clearTimeout(timer); watch?.stop(); merge.stop(); };
}

function report(job) {
  if (job.state !== 'DONE') {
    return h('p', { class: 'problem', dataset: { test: 'rebuild-report' } },
      `The rebuild ${job.state === 'CANCELLED' ? 'was cancelled' : 'failed'}: ${job.result}`);
  }
  const r = resultOf(job);
  const failed = Object.entries(r.failed ?? {});
  return h('div', { class: 'report', dataset: { test: 'rebuild-report' } },
    h('p', {}, `${r.indexed} objects indexed, ${r.skipped} files skipped (not DICOM), ${failed.length} failed, `
      + `${r.removed} stale entries removed, in ${formatDuration(r.elapsed)}.`),
    failed.length > 0 && h('details', {}, h('summary', {}, `${failed.length} files could not be indexed`),
      h('ul', {}, failed.slice(0, 200).map(([path, why]) => h('li', {}, h('code', {}, path), ': ', why)))));
}
