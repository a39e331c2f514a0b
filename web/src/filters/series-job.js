// "Apply to the whole series…": the chain, window and region of the filter panel run by the store over every instance
// of the series on show, as a background job (POST /jobs kind "derive-series") kept as one derived DICOM series.
// Progress is polled every 500 ms ("12 of 40"); Cancel asks the store to stop (DELETE /jobs/{id}), and the store
// removes what the job wrote; when done, a link opens the derived series.
import { h, notify } from '../ui.js';
import { confirmDialog } from '../admin/dialog.js';
import { submitJob, watchJob, cancelJob, resultOf } from '../admin/jobs.js';
import { stepText, windowText, regionText } from './render.js';

/** The derive-series job's parameters for a series (uid), the window on show (or null), a chain and a region. */
export function seriesJobParams(seriesUid, window, chain, region) {
  const params = { SeriesInstanceUID: seriesUid, filter: chain.map(stepText).join('|') };
  if (window) params.window = windowText(window);
  if (region) params.region = regionText(region);
  return params;
}

/**
 * ctx: { request() → { params, series: {uid, instances, description}, chainText } | null,
 *        problem() → why it cannot run now | null, openSeries(studyUid, seriesUid) }
 */
export function createSeriesJob(ctx) {
  let watch = null;
  let job = null;
  const applyButton = h('button', { dataset: { test: 'series-apply' }, onclick: () => start() }, 'Apply to the whole series…');
  const cancelButton = h('button', { dataset: { test: 'series-cancel' }, hidden: true, onclick: () => cancel() }, 'Cancel');
  const progress = h('progress', { dataset: { test: 'series-progress' }, hidden: true, max: 1, value: 0 });
  const status = h('p', { class: 'filter-status', dataset: { test: 'series-job-status' }, role: 'status' });
  const element = h('div', { class: 'series-job' }, h('div', { class: 'actions' }, applyButton, cancelButton), progress,
    status);

  function update() {
    const why = ctx.problem();
    applyButton.disabled = !!why || !!watch;
    applyButton.title = why ?? 'Run the chain over every image of this series on the store, kept as a new derived series';
  }

  async function start() {
    const request = ctx.request();
    if (!request) return;
    const { params, series, chainText } = request;
    const count = series.instances ? `all ${series.instances} images` : 'every image';
    if (!await confirmDialog({ title: 'Apply to the whole series?', confirm: 'Apply to the series',
      text: `${chainText} is applied by the store to ${count} of this series${series.description ? ` (${series.description})` : ''}`
        + `${params.window ? `, window ${params.window}` : ''}${params.region ? `, region ${params.region}` : ''}, and kept `
        + 'as a new derived DICOM series of this study. It runs in the background; you can cancel it.' })) return;
    show('Submitting to the store…', 'busy');
    try {
      job = await submitJob('derive-series', params);
    } catch (e) {
      show(e.message, 'error');
      update();
      return;
    }
    follow(job.id);
  }

  async function follow(id) {
    cancelButton.hidden = false;
    cancelButton.disabled = false;
    progress.hidden = false;
    watch = watchJob(id, (j) => { job = j; draw(j); }, { every: 500 });
    update();
    try {
      const end = await watch.done;
      finished(end);
    } catch (e) {
      show(`The job's state could not be read: ${e.message}`, 'error');
    } finally {
      watch = null;
      cancelButton.hidden = true;
      update();
    }
  }

  function draw(j) {
    if (j.total > 0) {
      progress.max = j.total;
      progress.value = j.done;
    }
    if (j.state === 'QUEUED') show('Waiting for a free worker on the store…', 'busy');
    else if (j.state === 'RUNNING') {
      const of = j.total > 0 ? `${j.done} of ${j.total}` : 'starting';
      show(j.cancelRequested ? `Cancelling… (${of})` : `Deriving the series on the store: ${of}`, 'busy');
    }
  }

  function finished(end) {
    progress.hidden = true;
    if (end.state === 'DONE') {
      const r = resultOf(end);
      status.textContent = '';
      status.append(`Done: ${r.derived} images kept as a derived series. `, h('a', { href: '#',
        dataset: { test: 'open-derived-series' },
        onclick: (e) => { e.preventDefault(); ctx.openSeries(r.StudyInstanceUID, r.SeriesInstanceUID); } },
      'Open the derived series'));
      status.dataset.state = 'done';
      notify(`Derived series stored: ${r.derived} images.`, 'ok');
    } else if (end.state === 'CANCELLED') {
      show(`Cancelled: ${end.result}`, 'cancelled');
    } else {
      show(`The job failed: ${end.result}`, 'error');
    }
  }

  async function cancel() {
    if (!job) return;
    cancelButton.disabled = true;
    try {
      job = await cancelJob(job.id);
      draw(job);
    } catch (e) {
      // 409: it ended meanwhile; the next poll shows how
      if (e.status !== 409) notify(e.message, 'error');
    }
  }

  function show(text, state) {
    status.textContent = text;
    status.dataset.state = state;
  }

  update();
  return { element, update, destroy: () => watch?.stop() };
}
