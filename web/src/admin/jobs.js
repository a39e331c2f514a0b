// The store's background jobs (/jobs): submitting one, following it until it ends, and showing jobs. Any node of a
// cluster may run a job and another may take it over (attempts > 1); progress is `done` of `total` when the kind
// reports it (index-rebuild and retrieve report none yet: their state is all there is until they end). A queued or
// running job can be cancelled (DELETE /jobs/{id}): a running one stops at its next progress report.
import { api } from '../api.js';
import { h } from '../ui.js';
import { formatDuration, formatTime } from './format.js';

export async function submitJob(kind, params = {}) {
  return api('/jobs', { method: 'POST', json: { kind, params } });
}

/** Asks the store to cancel a job; → the job (CANCELLED when it was queued; RUNNING, cancelRequested, when running). */
export async function cancelJob(id) {
  return api(`/jobs/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export const ended = (job) => job.state === 'DONE' || job.state === 'FAILED' || job.state === 'CANCELLED';
const cancellable = (job) => job.state === 'QUEUED' || job.state === 'RUNNING';

/**
 * Polls a job until it is DONE, FAILED or CANCELLED, calling onUpdate(job) each time. Returns { stop, done } where
 * done resolves with the last state. Polls every `every` ms (a second by default), less often after 30 s.
 */
export function watchJob(id, onUpdate, { every = 1000 } = {}) {
  let stopped = false;
  let timer;
  const done = new Promise((resolve, reject) => {
    const started = Date.now();
    let failures = 0;
    const next = () => { timer = setTimeout(poll, Date.now() - started < 30000 ? every : 3000); };
    const poll = async () => {
      if (stopped) return;
      let job;
      try {
        job = await api(`/jobs/${encodeURIComponent(id)}`);
      } catch (e) {
        // A busy or restarting store (no answer, 5xx) is asked again, a few times; a refusal (4xx) ends the watch.
        if ((e.status === undefined || e.status >= 500) && ++failures <= 5) next();
        else reject(e);
        return;
      }
      failures = 0;
      if (stopped) return;
      onUpdate(job);
      if (ended(job)) resolve(job);
      else next();
    };
    poll();
  });
  return { stop: () => { stopped = true; clearTimeout(timer); }, done };
}

/** The result of a finished job: JSON when it is, else its text (a FAILED job's reason). */
export function resultOf(job) {
  try { return JSON.parse(job.result); } catch { return job.result; }
}

/** One job's state as a line: state, node, progress, attempts, time. */
export function jobLine(job) {
  const running = job.state === 'RUNNING' || job.state === 'QUEUED';
  const elapsed = job.started ? (job.finished ? new Date(job.finished) : new Date()) - new Date(job.started) : null;
  return h('div', { class: `job-line state-${job.state.toLowerCase()}`, dataset: { test: 'job', state: job.state } },
    h('span', { class: 'badge' }, stateText(job)),
    job.total > 0
      ? h('progress', { max: job.total, value: job.done, title: `${job.done} of ${job.total}` })
      : running && h('span', { class: 'spinner', title: 'this kind of job reports no intermediate progress' }),
    job.total > 0 && h('span', {}, `${job.done} of ${job.total}`),
    job.node && h('span', { class: 'muted' }, `on ${job.node}`),
    job.attempts > 1 && h('span', { class: 'warn', title: 'the node running it died; another node took it over' },
      `attempt ${job.attempts}`),
    elapsed !== null && h('span', { class: 'muted' }, formatDuration(elapsed)),
    h('span', { class: 'muted', title: `job ${job.id}` }, `job ${job.id.slice(0, 8)}`));
}

/** "running", or "cancelling" for a running job asked to stop. */
function stateText(job) {
  return job.state === 'RUNNING' && job.cancelRequested ? 'cancelling' : job.state.toLowerCase();
}

/** Recent jobs as a table; onCancel(job), when given, offers Cancel for queued and running jobs. */
export function jobsTable(jobs, { onCancel } = {}) {
  if (!jobs.length) return h('p', { class: 'muted' }, 'No jobs yet.');
  return h('table', { class: 'grid', dataset: { test: 'jobs-table' } },
    h('thead', {}, h('tr', {}, ['Kind', 'Parameters', 'State', 'Node', 'Progress', 'Submitted', 'Took', 'Result', '']
      .map((t) => h('th', {}, t)))),
    h('tbody', {}, jobs.map((j) => h('tr', { dataset: { state: j.state } },
      h('td', { title: j.id }, j.kind),
      h('td', { class: 'params' }, Object.entries(j.params ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')),
      h('td', {}, h('span', { class: `badge state-${j.state.toLowerCase()}` }, stateText(j)),
        j.attempts > 1 ? ` (attempt ${j.attempts})` : ''),
      h('td', {}, j.node ?? ''),
      h('td', {}, j.total > 0 ? `${j.done} of ${j.total}` : ''),
      h('td', {}, formatTime(j.created)),
      h('td', {}, j.started && j.finished ? formatDuration(new Date(j.finished) - new Date(j.started)) : ''),
      h('td', { class: 'result', title: j.result ?? '' }, summarize(j)),
      h('td', {}, onCancel && cancellable(j) && !j.cancelRequested && h('button', { dataset: { test: 'job-cancel' },
        title: j.state === 'QUEUED' ? 'Cancel: it will not run' : 'Cancel: it stops at its next step and removes what it wrote',
        onclick: () => onCancel(j) }, 'Cancel'))))));
}

/** A retrieve's counts in words: "3 stored, 0 failed", with "10 already held" when the store had some. */
export function retrieveCounts(r) {
  return `${r.stored} stored, ${r.alreadyHeld ? `${r.alreadyHeld} already held, ` : ''}${r.failed} failed`;
}

function summarize(job) {
  if (!job.result) return '';
  const r = resultOf(job);
  if (typeof r !== 'object' || r === null) return String(r);
  if (job.kind === 'index-rebuild') {
    return `${r.indexed} indexed, ${r.skipped} skipped, ${Object.keys(r.failed ?? {}).length} failed, ${r.removed} removed`;
  }
  if (job.kind === 'retrieve') return retrieveCounts(r);
  if (job.kind === 'derive-series') return `${r.derived} derived into series ${r.SeriesInstanceUID}`;
  if (job.kind === 'correct' || job.kind === 'merge-patients') {
    return `${r.corrected} instances corrected in ${r.studies.length} stud${r.studies.length === 1 ? 'y' : 'ies'}`
      + ` (${Object.keys(r.new ?? {}).join(', ')})`;
  }
  return job.result.length > 120 ? job.result.slice(0, 120) + '…' : job.result;
}
