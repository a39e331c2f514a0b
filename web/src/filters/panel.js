// The filter panel of the viewer: the store's catalogue (followed live), the chain being built (add, edit, reorder,
// remove), the region, Apply (filtered on the server for the frame on show; a grey result comes back as stored values
// the result layer windows with the window on show, a colour one as the store's PNG), the comparison of before and
// after, the time it took, Save as a derived DICOM instance, and Apply to the whole series (series-job.js).
import { h, notify, showError } from '../ui.js';
import { watchCatalogue } from './catalogue.js';
import { helpFor } from './help.js';
import { paramForm, defaults, checkParam } from './form.js';
import { renderUrl, renderImage, fetchStoredValues, stepText, regionText, serverTimings } from './render.js';
import { saveDerived } from './save.js';
import { MODES } from './result.js';
import { createSeriesJob, seriesJobParams } from './series-job.js';

let keys = 0;

/**
 * ctx: { source() → {path, frame, window} | null, layer (createResultLayer), region (createRegionTool),
 *        useRegionTool(), openDerived(result), series() → {uid, instances, description} | null,
 *        openSeries(studyUid, seriesUid) }
 */
export function createFilterPanel(ctx) {
  let catalogue = [];
  let chain = []; // [{ key, id, params, error: {name: sentence}, open }]
  let busy = null; // AbortController of the request in flight
  let live = false; // a result is on show: follow frame and window changes

  const list = h('div', { class: 'catalogue', dataset: { test: 'filter-catalogue' } });
  const chainList = h('ol', { class: 'chain', dataset: { test: 'filter-chain' } });
  const regionLabel = h('span', { dataset: { test: 'region-text' } }, 'whole image');
  const applyButton = h('button', { class: 'primary', dataset: { test: 'filter-apply' }, onclick: () => apply() }, 'Apply');
  const clearButton = h('button', { dataset: { test: 'filter-clear' }, onclick: () => clearResult() }, 'Remove result');
  const saveButton = h('button', { dataset: { test: 'filter-save' }, onclick: () => save(),
    title: 'Store the filtered image as a new DICOM series of this study (POST /derived)' }, 'Save as derived…');
  const status = h('p', { class: 'filter-status', dataset: { test: 'filter-status' }, role: 'status' });
  const timing = h('p', { class: 'filter-timing', dataset: { test: 'filter-timing' } });
  const modeButtons = Object.entries(MODES).map(([m, label]) => h('button', { dataset: { test: `compare-${m}`, mode: m },
    onclick: () => { ctx.layer.setMode(m); marks(); } }, label));
  const compare = h('div', { class: 'compare segmented', role: 'group', 'aria-label': 'Compare' }, modeButtons);

  const seriesJob = createSeriesJob({
    problem: () => problem() ?? (ctx.series() ? null : 'No stored series is on show.'),
    request: () => {
      const series = ctx.series();
      const source = ctx.source();
      if (!series || !source || problem()) return null;
      return { series, params: seriesJobParams(series.uid, source.window, chain, ctx.region.get()),
        chainText: chain.map((s) => filterOf(s.id)?.name ?? s.id).join(' → ') };
    },
    openSeries: (study, series) => ctx.openSeries(study, series),
  });

  const element = h('aside', { class: 'filters-panel', dataset: { test: 'filters-panel' } },
    h('h2', {}, 'Filters on the store'),
    h('p', { class: 'muted small' }, 'Applied by the store to the stored values of the frame on show; window/level stays live on a grey result.'),
    list,
    h('h3', {}, 'Chain ', h('span', { class: 'muted small' }, '(applied top to bottom)')),
    chainList,
    h('div', { class: 'region-row' }, 'Region: ', regionLabel, ' ',
      h('button', { dataset: { test: 'region-draw' }, title: 'Drag a rectangle on the image (G)', onclick: () => ctx.useRegionTool() }, 'Draw'),
      h('button', { dataset: { test: 'region-clear' }, onclick: () => ctx.region.set(null) }, 'Whole image')),
    h('div', { class: 'actions' }, applyButton, clearButton),
    status, timing,
    h('h3', {}, 'Compare'), compare,
    h('div', { class: 'actions' }, saveButton),
    seriesJob.element);

  const watcher = watchCatalogue((filters) => {
    catalogue = filters;
    drawCatalogue();
    drawChain();
  }, { onError: (e) => showError(e, 'Filter catalogue') });

  function drawCatalogue() {
    list.replaceChildren(...(catalogue.length ? catalogue.map((f) => {
      const help = helpFor(f.id);
      return h('div', { class: 'catalogue-item', dataset: { test: `filter-${f.id}` } },
        h('div', { class: 'catalogue-head' },
          h('strong', { title: `${f.description}\n(plugin ${f.plugin} ${f.version})` }, f.name),
          h('button', { dataset: { test: `add-filter-${f.id}` }, title: `Add ${f.name} to the end of the chain`,
            onclick: () => add(f) }, 'Add')),
        h('p', { class: 'small muted', title: help?.use ?? '' }, help?.summary ?? f.description));
    }) : [h('p', { class: 'muted' }, 'The store offers no filters right now.')]));
  }

  const filterOf = (id) => catalogue.find((f) => f.id === id);

  function add(f) {
    chain.forEach((s) => { s.open = false; });
    chain.push({ key: ++keys, id: f.id, params: defaults(f), errors: {}, open: true });
    drawChain();
  }

  function drawChain() {
    chainList.replaceChildren(...chain.map((step, i) => {
      const f = filterOf(step.id);
      const head = h('div', { class: 'step-head' },
        h('button', { class: 'step-name', title: 'Show the settings', onclick: () => { step.open = !step.open; drawChain(); } },
          `${f?.name ?? step.id}`),
        h('code', { class: 'step-params' }, Object.entries(step.params).map(([k, v]) => `${k}=${v}`).join(' ')),
        h('span', { class: 'step-tools' },
          h('button', { title: 'Move up', disabled: i === 0, dataset: { test: 'step-up' }, onclick: () => move(i, -1) }, '↑'),
          h('button', { title: 'Move down', disabled: i === chain.length - 1, dataset: { test: 'step-down' }, onclick: () => move(i, 1) }, '↓'),
          h('button', { title: 'Remove from the chain', dataset: { test: 'step-remove' }, onclick: () => { chain.splice(i, 1); drawChain(); } }, '×')));
      const gone = !f;
      return h('li', { class: `step${gone ? ' gone' : ''}`, dataset: { test: 'chain-step', filter: step.id } },
        head,
        gone ? h('p', { class: 'param-problem' }, 'The store no longer offers this filter (suspended or removed). Remove it, or wait until it is back.')
          : step.open && paramForm(f, step, (name, value, error) => {
            step.params[name] = value;
            if (error) step.errors[name] = error; else delete step.errors[name];
            head.querySelector('.step-params').textContent = Object.entries(step.params).map(([k, v]) => `${k}=${v}`).join(' ');
            updateButtons();
          }));
    }));
    updateButtons();
  }

  function move(i, d) {
    const [s] = chain.splice(i, 1);
    chain.splice(i + d, 0, s);
    drawChain();
  }

  /** Why the chain cannot be applied now, or null. */
  function problem() {
    if (!chain.length) return 'Add a filter first.';
    const gone = chain.find((s) => !filterOf(s.id));
    if (gone) return `${gone.id} is no longer offered by the store: remove it from the chain.`;
    for (const s of chain) {
      const f = filterOf(s.id);
      for (const p of f.params) {
        const e = checkParam(p, s.params[p.name]);
        if (e) return `${f.name}: ${e}.`;
      }
    }
    if (!ctx.source()) return 'No stored image is on show.';
    return null;
  }

  function updateButtons() {
    const why = problem();
    applyButton.disabled = !!why || !!busy;
    applyButton.title = why ?? 'Render the chain on the store';
    saveButton.disabled = !!why;
    saveButton.title = why ?? 'Store the filtered image as a new DICOM series of this study (POST /derived)';
    clearButton.disabled = !ctx.layer.has();
    seriesJob.update();
  }

  function marks() {
    modeButtons.forEach((b) => b.classList.toggle('active', b.dataset.mode === ctx.layer.mode()));
  }

  /**
   * What the result on show was made from; another key means the result no longer matches. Not the window: a grey
   * result is windowed in the viewer with whatever window is on show, and a colour one has none.
   */
  function keyOf(source) {
    return JSON.stringify([source.path, source.frame, chain.map(stepText), ctx.region.get() && regionText(ctx.region.get())]);
  }

  async function apply({ quiet = false } = {}) {
    const why = problem();
    if (why) {
      if (!quiet) status.textContent = why;
      return;
    }
    const source = ctx.source();
    busy?.abort();
    const controller = new AbortController();
    busy = controller;
    updateButtons();
    status.textContent = 'Rendering on the store…';
    status.dataset.state = 'busy';
    // Grey: the filtered stored values, windowed in the viewer (W/L stays live); colour: the store's PNG.
    const grey = !!source.window, steps = chain.map((s) => ({ id: s.id, params: { ...s.params } })), region = ctx.region.get();
    const url = renderUrl(source, steps, region, grey ? 'dicom' : 'png');
    const key = keyOf(source);
    try {
      const r = grey ? await fetchStoredValues(url, { signal: controller.signal }) : await renderImage(url, { signal: controller.signal });
      if (controller.signal.aborted) return;
      if (grey) ctx.layer.setStored(r.stored, (w) => renderUrl({ ...source, window: w }, steps, region), key);
      else ctx.layer.set(r.bitmap, url, key);
      live = true;
      status.textContent = `${chain.map((s) => filterOf(s.id)?.name ?? s.id).join(' → ')} on ${r.width}×${r.height}` +
        `${ctx.region.get() ? `, region ${regionText(ctx.region.get())}` : ''}.`;
      status.dataset.state = 'done';
      const parts = serverTimings(r.serverTiming).map((t) => `${t.name} ${t.ms.toFixed(1)}`).join(' · ');
      const received = grey ? `DICOM ${(r.bytes / 1024).toFixed(0)} KiB (stored values, windowed here) parsed in ${r.decodeMs.toFixed(0)} ms`
        : `PNG ${(r.bytes / 1024).toFixed(0)} KiB decoded in ${r.decodeMs.toFixed(0)} ms`;
      timing.textContent = r.serverMs !== null
        ? `Store ${r.serverMs.toFixed(0)} ms (${parts} ms) · round trip ${r.roundTripMs.toFixed(0)} ms · ${received}`
        : `Round trip ${r.roundTripMs.toFixed(0)} ms (request → last byte; the store sent no Server-Timing) · ${received}`;
      timing.dataset.ms = String(Math.round(r.serverMs ?? r.roundTripMs));
      if (ctx.layer.mode() === 'before') ctx.layer.setMode('after');
      marks();
    } catch (e) {
      if (e.name === 'AbortError') return;
      status.textContent = e.message;
      status.dataset.state = 'error';
      if (!quiet) showError(e, 'Filter');
    } finally {
      if (busy === controller) busy = null;
      updateButtons();
    }
  }

  function clearResult() {
    busy?.abort();
    live = false;
    ctx.layer.clear();
    status.textContent = '';
    timing.textContent = '';
    updateButtons();
  }

  let followTimer = null;
  /**
   * The image on show changed (frame, window, region): the result is hidden at once if it no longer matches, and
   * made again for what is on show once the user pauses.
   */
  function sourceChanged() {
    regionLabel.textContent = ctx.region.get() ? regionText(ctx.region.get()).replace(/,/g, ', ') : 'whole image';
    const source = ctx.source();
    if (!live || !source) return;
    const matches = ctx.layer.key() === keyOf(source);
    ctx.layer.setStale(!matches);
    clearTimeout(followTimer);
    if (!matches) followTimer = setTimeout(() => apply({ quiet: true }), 350);
  }

  async function save() {
    const why = problem();
    if (why) {
      status.textContent = why;
      return;
    }
    saveButton.disabled = true;
    status.textContent = 'Saving on the store…';
    status.dataset.state = 'busy'; // not the state of an earlier save or apply
    try {
      const saved = await saveDerived(ctx.source(), chain, ctx.region.get());
      status.textContent = '';
      // a store path has no break opportunities of its own: it wraps anywhere (CSS), the whole path in a title
      status.append('Saved as ', h('span', { class: 'saved-path', title: saved.path, dataset: { test: 'saved-path' } },
        saved.path), '. ', h('a', { href: '#', dataset: { test: 'open-derived' },
        onclick: (e) => { e.preventDefault(); ctx.openDerived(saved); } }, 'Open the derived image'));
      status.dataset.state = 'saved';
      notify(`Derived image saved: ${saved.path}`, 'ok');
    } catch (e) {
      status.textContent = e.message;
      status.dataset.state = 'error';
      showError(e, 'Save');
    } finally {
      updateButtons();
    }
  }

  drawCatalogue();
  drawChain();
  marks();
  return {
    element,
    apply,
    sourceChanged,
    chain: () => chain.map((s) => ({ id: s.id, params: { ...s.params } })),
    destroy() {
      watcher.stop();
      seriesJob.destroy();
      busy?.abort();
      clearTimeout(followTimer);
    },
  };
}

