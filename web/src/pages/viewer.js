// The viewer (#/view?study=…&series=…[&instance=…&frame=…]): one series of a study in a Cornerstone stack viewport,
// with the toolbar, the four-corner overlays, the series strip, the stack slider and cine, keyboard shortcuts, and
// the store's filters. The address follows the image on show, so a reload or a new login comes back to it.
import { h, showError } from '../ui.js';
import { navigate } from '../router.js';
import { cornerstone, onLoadFailure } from '../viewer/cornerstone.js';
import { createViewport } from '../viewer/viewport.js';
import { loadSeries, studySeries, studyInfo } from '../viewer/series.js';
import { presetsFor, formatWindow } from '../viewer/presets.js';
import { createOverlays } from '../viewer/overlays.js';
import { createStrip } from '../viewer/strip.js';
import { bindShortcuts } from '../viewer/shortcuts.js';
import { createResultLayer } from '../filters/result.js';
import { createRegionTool } from '../filters/region.js';
import { createFilterPanel } from '../filters/panel.js';
import '../viewer.css';

export async function renderViewer(main, params) {
  if (!params.study) {
    main.append(h('p', { class: 'empty' }, 'No study chosen. ', h('a', { href: '#/studies' }, 'Find one in the study list.')));
    return undefined;
  }
  const cleanups = [];
  const cleanup = () => cleanups.reverse().forEach((f) => { try { f(); } catch (e) { console.error(e); } });

  const element = h('div', { class: 'viewport', dataset: { test: 'viewport' }, oncontextmenu: (e) => e.preventDefault() });
  const message = h('div', { class: 'stage-message', dataset: { test: 'viewer-message' }, role: 'status' }, 'Loading the study…');
  const slider = h('input', { class: 'stack-slider', type: 'range', min: 1, max: 1, value: 1, 'aria-label': 'Image in the series',
    dataset: { test: 'stack-slider' }, oninput: () => vp?.go(Number(slider.value) - 1) });
  const stage = h('div', { class: 'stage' }, element, slider, message);
  const toolbar = h('div', { class: 'viewer-toolbar', role: 'toolbar' });
  const body = h('div', { class: 'viewer-body' }, stage);
  const page = h('div', { class: 'viewer', dataset: { test: 'viewer' } }, toolbar, body);
  main.append(page);
  main.classList.add('full');
  cleanups.push(() => main.classList.remove('full'));

  let vp = null;
  let wired = false; // the viewport reports changes as soon as it exists; the page listens once all its parts do
  try {
    const [{ dicomImageLoader }, study, seriesList] = await Promise.all([cornerstone(), studyInfo(params.study),
      studySeries(params.study)]);
    if (!seriesList.length) throw new Error('This study has no series in the store.');
    const overlays = createOverlays();
    stage.append(overlays.element);
    vp = await createViewport(element, { onChange: (what) => changed(what) });
    cleanups.push(() => vp.destroy());
    const layer = createResultLayer(vp, stage);
    cleanups.push(() => layer.destroy());
    const region = createRegionTool(vp, { onChange: () => { panel.sourceChanged(); } });
    cleanups.push(() => region.destroy());

    let series = seriesList.find((s) => s.uid === params.series) ?? seriesList[0];
    let loading = null;
    const strip = createStrip(params.study, seriesList, (s) => show(s));
    body.prepend(strip.element);

    const panel = createFilterPanel({
      source() {
        const f = vp.current();
        if (!f?.instance.path || !vp.image()) return null;
        return { path: f.instance.path, frame: f.frame - 1, window: vp.isColor() ? null : vp.voi() };
      },
      layer, region,
      useRegionTool: () => setTool('region'),
      openDerived: (saved) => navigate('/view', { study: saved.studyUid, series: saved.seriesUid, instance: saved.sopInstanceUid }),
      series: () => series && { uid: series.uid, instances: series.instances, description: series.description },
      openSeries: (study, uid) => navigate('/view', { study, series: uid }),
    });
    cleanups.push(() => panel.destroy());
    body.append(panel.element);

    // Failed image requests of the loader: the store's reason, readable.
    cleanups.push(onLoadFailure((xhr) => {
      if (!xhr || xhr.status === 401) return;
      const reason = xhr.response instanceof ArrayBuffer ? new TextDecoder().decode(xhr.response).slice(0, 400) : '';
      let text = reason;
      try { const j = JSON.parse(reason); text = j.message ?? j.error ?? reason; } catch { /* not JSON */ }
      const what = xhr.status ? `The store answered ${xhr.status}${text ? `: ${text}` : ''}` : 'The store did not answer';
      message.textContent = `An image could not be loaded. ${what}`;
      message.hidden = false;
      message.dataset.state = 'load-error';
    }));

    // ---- toolbar ----
    const toolButtons = {};
    const tool = (name, label, title) => (toolButtons[name] = h('button', { dataset: { test: `tool-${name}` }, title,
      onclick: () => setTool(name) }, label));
    const presetSelect = h('select', { dataset: { test: 'presets' }, title: 'Window presets (0–9)',
      onchange: () => { applyPreset(presetSelect.value); presetSelect.value = ''; } });
    const fps = h('input', { type: 'number', min: 1, max: 60, value: Number(params.fps) || 15, class: 'fps',
      dataset: { test: 'cine-fps' }, title: 'Frames per second',
      onchange: () => { if (vp.cineRate()) vp.playCine(cineFps()); } });
    const cineButton = h('button', { dataset: { test: 'cine-play' }, title: 'Play / stop (Space)', onclick: () => toggleCine() }, '▶ Cine');
    const smoothButton = h('button', { dataset: { test: 'smooth' }, title: 'Show image pixels as squares, or smooth (S)',
      onclick: () => vp.toggleSmooth() }, 'Pixels');
    const shortcuts = bindShortcuts({
      scroll: (d) => vp.scroll(d), first: () => vp.go(0), last: () => vp.go(vp.frames().length - 1),
      series: (d) => { const i = seriesList.indexOf(series) + d; if (seriesList[i]) show(seriesList[i]); },
      cine: () => toggleCine(), preset: (key) => applyPreset(key, true), invert: () => vp.toggleInvert(),
      smooth: () => vp.toggleSmooth(),
      rotate: (deg) => vp.rotate(deg), flip: (hz) => vp.flip(hz), fit: () => vp.fit(), actualSize: () => vp.actualSize(),
      escape: () => { if (!shortcuts.help.hidden) shortcuts.help.hidden = true; else vp.resetAll(); },
      tool: (name) => setTool(name), deleteSelected: () => vp.deleteSelected(), compare: () => layer.toggle(),
      help: () => shortcuts.toggleHelp(),
    });
    cleanups.push(() => shortcuts.detach());
    stage.append(shortcuts.help);
    const filtersToggle = h('button', { class: 'active', dataset: { test: 'filters-toggle' }, title: 'Show or hide the filter panel',
      onclick: () => {
        panel.element.hidden = !panel.element.hidden;
        filtersToggle.classList.toggle('active', !panel.element.hidden);
      } }, 'Filters');
    toolbar.append(
      h('a', { href: sessionStorage.getItem('medjava.studies') ?? '#/studies', class: 'back', dataset: { test: 'back-to-studies' },
        title: 'Back to the study list (the last search)' }, '← Studies'),
      h('span', { class: 'segmented' }, tool('wl', 'W/L', 'Window/level (W): drag right = wider, down = higher level'),
        tool('pan', 'Pan', 'Pan (P)'), tool('zoom', 'Zoom', 'Zoom (Z)'), tool('length', 'Length', 'Distance in mm (L)'),
        tool('rectangle', 'Box', 'Rectangle ROI with mean, SD, min, max (B)'),
        tool('ellipse', 'Ellipse', 'Ellipse ROI with mean, SD, min, max (E)'),
        tool('region', 'Region', 'The region the filters apply to (G)')),
      presetSelect,
      h('button', { dataset: { test: 'invert' }, title: 'Invert (I)', onclick: () => vp.toggleInvert() }, 'Invert'),
      smoothButton,
      h('button', { dataset: { test: 'rotate' }, title: 'Rotate 90° right (R)', onclick: () => vp.rotate(90) }, '⟳'),
      h('button', { dataset: { test: 'flip-h' }, title: 'Flip horizontally (H)', onclick: () => vp.flip(true) }, '⇋'),
      h('button', { dataset: { test: 'flip-v' }, title: 'Flip vertically (V)', onclick: () => vp.flip(false) }, '⇵'),
      h('button', { dataset: { test: 'fit' }, title: 'Fit (F)', onclick: () => vp.fit() }, 'Fit'),
      h('button', { dataset: { test: 'actual-size' }, title: 'One image pixel per screen pixel (A)', onclick: () => vp.actualSize() }, '1:1'),
      h('button', { dataset: { test: 'reset' }, title: 'Reset window, zoom, rotation (Esc)', onclick: () => vp.resetAll() }, 'Reset'),
      h('button', { dataset: { test: 'clear-measurements' }, title: 'Remove all measurements', onclick: () => vp.clearAnnotations() }, 'Clear'),
      h('span', { class: 'cine' }, cineButton, fps, h('span', { class: 'muted small' }, 'fps')),
      h('span', { class: 'spacer' }),
      filtersToggle,
      h('button', { dataset: { test: 'help-button' }, title: 'Keyboard shortcuts (?)', onclick: () => shortcuts.toggleHelp() }, '?'));

    function setTool(name) {
      vp.setPrimaryTool(name);
      region.activate(name === 'region');
      Object.entries(toolButtons).forEach(([k, b]) => b.classList.toggle('active', k === name));
    }
    function cineFps() {
      return Math.max(1, Math.min(60, Number(fps.value) || 15));
    }
    function toggleCine() {
      if (vp.cineRate()) vp.stopCine(); else vp.playCine(cineFps());
    }
    function drawPresets() {
      const list = vp.isColor() ? [] : presetsFor(series.modality, vp);
      presetSelect.replaceChildren(h('option', { value: '' }, vp.isColor() ? 'Colour image' : 'Window…'),
        ...list.map((p, i) => h('option', { value: String(i) }, `${p.key ? `${p.key}  ` : ''}${p.name} (${formatWindow(p)})`)));
      presetSelect.disabled = !list.length;
      presetSelect.presets = list;
    }
    /** By list position (the select) or by digit key (the keyboard). */
    function applyPreset(which, byKey = false) {
      const list = presetSelect.presets ?? [];
      const p = byKey ? list.find((x) => x.key === which) : list[Number(which)];
      if (!p) return;
      vp.setVoi(p.center, p.width);
    }

    // ---- state follows the viewport ----
    let addressTimer = null;
    function changed(what) {
      if (!wired) return;
      if (what === 'rendered' || what === 'camera' || what === 'voi' || what === 'image' || what === 'stack' || what === 'cine') {
        overlays.update({ study, series, viewport: vp });
        layer.redraw();
        region.redraw();
      }
      if (what === 'image' || what === 'stack') {
        if (message.dataset.state === 'load-error') message.hidden = true; // another image is on show now
        slider.value = String(vp.index() + 1);
        clearTimeout(addressTimer);
        addressTimer = setTimeout(rememberPlace, 400);
      }
      if (what === 'stack') drawPresets();
      if (what === 'voi') smoothButton.classList.toggle('active', !vp.smooth());
      if (what === 'cine') cineButton.textContent = vp.cineRate() ? '■ Stop' : '▶ Cine';
      if (what === 'image' || what === 'voi' || what === 'stack') panel.sourceChanged();
    }
    cleanups.push(() => clearTimeout(addressTimer));
    /** The address names the image on show (replaceState: no new history entry, no re-render). */
    function rememberPlace() {
      const f = vp.current();
      if (!f || !location.hash.startsWith('#/view')) return;
      const q = new URLSearchParams({ study: params.study, series: series.uid, instance: f.instance.uid });
      if (f.instance.frames > 1) q.set('frame', String(f.frame));
      if (params.loader) q.set('loader', params.loader);
      history.replaceState(history.state, '', `#/view?${q}`);
    }

    async function show(s, { instance, frame } = {}) {
      const ticket = {};
      loading = ticket;
      series = s;
      strip.mark(s.uid);
      message.hidden = false;
      message.dataset.state = 'loading';
      message.textContent = `Loading series ${s.number ?? ''}${s.description ? ` (${s.description})` : ''}…`;
      try {
        const { frames } = await loadSeries(params.study, s.uid, { dicomImageLoader, loader: params.loader });
        if (loading !== ticket) return;
        if (!frames.length) throw new Error('This series has no images in the store.');
        let index = instance ? frames.findIndex((f) => f.instance.uid === instance && f.frame === (Number(frame) || 1)) : 0;
        if (index < 0) index = 0;
        slider.max = String(frames.length);
        slider.hidden = frames.length < 2;
        cineButton.disabled = frames.length < 2;
        layer.clear();
        await vp.setStack(frames, index);
        if (loading !== ticket) return;
        message.hidden = true;
        message.dataset.state = 'shown';
        // Multi-frame objects (cine loops) start playing only when asked; their rate comes from the object if it has one.
        const m = frames[0].instance.metadata;
        const rate = Number(m?.['00082144']?.Value?.[0]) || 1000 / Number(m?.['00181063']?.Value?.[0]);
        if (Number.isFinite(rate) && rate >= 1 && !params.fps) fps.value = String(Math.min(60, Math.round(rate)));
      } catch (e) {
        if (loading !== ticket) return;
        message.textContent = `This series could not be shown: ${e.message}`;
        message.dataset.state = 'error';
        showError(e, 'Viewer');
      }
    }

    wired = true;
    setTool('wl');
    await show(series, { instance: params.instance, frame: params.frame });
    window.__medjavaViewer = { vp, panel, layer, region }; // for the browser tests and the benchmark
    cleanups.push(() => { delete window.__medjavaViewer; });
  } catch (e) {
    message.textContent = `The viewer could not open this study: ${e.message}`;
    message.dataset.state = 'error';
    showError(e, 'Viewer');
  }
  return cleanup;
}
