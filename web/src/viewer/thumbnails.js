// Series thumbnails: the store's DICOMweb thumbnail resource when it has one, else the rendered PNG of the series'
// first instance from /images/{path}?render=png, scaled down by CSS. Whether the thumbnail resource exists is
// learnt from the first answer, so a store without it costs one failed request per page, not one per series.
import { h } from '../ui.js';
import { api } from '../api.js';
import { encodePath } from './series.js';

let endpoint = 'unknown'; // 'unknown' | 'yes' | 'no'

export function thumbnail(studyUid, seriesUid, { alt = '' } = {}) {
  const img = h('img', { class: 'thumb', alt, loading: 'lazy', decoding: 'async', dataset: { test: 'thumbnail' } });
  const fallback = async () => {
    try {
      const [first] = await api(`/index/series/${encodeURIComponent(seriesUid)}/instances?limit=1`);
      if (!first?.path) throw new Error('no instance');
      img.src = `/images/${encodePath(first.path)}?render=png`;
      img.onerror = () => img.replaceWith(h('div', { class: 'thumb none', title: 'The store could not render this series' }, '—'));
    } catch {
      img.replaceWith(h('div', { class: 'thumb none' }, '—'));
    }
  };
  if (endpoint === 'no') {
    fallback();
  } else {
    img.onload = () => { endpoint = 'yes'; };
    img.onerror = () => {
      if (endpoint !== 'yes') endpoint = 'no';
      img.onload = null;
      fallback();
    };
    img.src = `/dicomweb/studies/${encodeURIComponent(studyUid)}/series/${encodeURIComponent(seriesUid)}/thumbnail`;
  }
  return img;
}
