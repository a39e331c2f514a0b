// (work in progress) The viewer page.
import { h, showError } from '../ui.js';
import { cornerstone } from '../viewer/cornerstone.js';
import { createViewport } from '../viewer/viewport.js';
import { loadSeries, studySeries } from '../viewer/series.js';

export async function renderViewer(main, params) {
  const element = h('div', { class: 'viewport', dataset: { test: 'viewport' }, style: { width: '800px', height: '600px' },
    oncontextmenu: (e) => e.preventDefault() });
  main.append(element);
  const { dicomImageLoader } = await cornerstone();
  const vp = await createViewport(element);
  const series = params.series ?? (await studySeries(params.study))[0].uid;
  const { frames } = await loadSeries(params.study, series, { dicomImageLoader, loader: params.loader });
  await vp.setStack(frames, 0);
  window.__vp = vp;
  return () => vp.destroy();
}
