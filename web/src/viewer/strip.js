// The series strip: every series of the study with a thumbnail; the one on show is marked; a click shows another.
import { h } from '../ui.js';
import { thumbnail } from './thumbnails.js';

export function createStrip(studyUid, series, onSelect) {
  const items = new Map();
  const element = h('aside', { class: 'series-strip', dataset: { test: 'series-strip' } },
    series.map((s) => {
      const item = h('button', { class: 'series-item', dataset: { test: 'series-item', series: s.uid },
        title: `Series ${s.number ?? '?'}${s.description ? `: ${s.description}` : ''} (${s.instances} instance${s.instances === 1 ? '' : 's'})`,
        onclick: () => onSelect(s) },
      thumbnail(studyUid, s.uid, { alt: `series ${s.number ?? ''}` }),
      h('span', { class: 'series-label' }, `${s.modality} · Se ${s.number ?? '?'}`),
      h('span', { class: 'series-desc' }, s.description || `${s.instances} image${s.instances === 1 ? '' : 's'}`));
      items.set(s.uid, item);
      return item;
    }));
  return {
    element,
    mark(uid) {
      items.forEach((item, key) => item.classList.toggle('current', key === uid));
      items.get(uid)?.scrollIntoView({ block: 'nearest' });
    },
  };
}
