// The four corners over the image: who (patient), what (study), which (series, instance, frame, position) and how it
// is shown (window, zoom, rotation, inversion, cine). Text only, never under the mouse (pointer-events: none).
import { h } from '../ui.js';
import { value } from '../api.js';

const text = (m, tag) => {
  const v = m?.[tag]?.Value?.[0];
  return v && typeof v === 'object' ? (v.Alphabetic ?? '') : (v ?? '');
};
const date = (d) => (/^\d{8}$/.test(d ?? '') ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d ?? '');
const time = (t) => (/^\d{4}/.test(t ?? '') ? `${t.slice(0, 2)}:${t.slice(2, 4)}` : '');
const round = (x) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10) / 10);
const person = (n) => String(n ?? '').replace(/\^+/g, ' ').trim();

export function createOverlays() {
  const corner = (where) => h('div', { class: `corner ${where}`, dataset: { test: `overlay-${where}` } });
  const corners = { tl: corner('tl'), tr: corner('tr'), bl: corner('bl'), br: corner('br') };
  const element = h('div', { class: 'overlays' }, Object.values(corners));

  /** state: { study (QIDO object), series ({number, description, modality}), viewport (createViewport's api) } */
  function update({ study, series, viewport }) {
    const f = viewport.current();
    const m = f?.instance.metadata;
    const lines = (el, ...rows) => el.replaceChildren(...rows.filter(Boolean).map((r) => h('div', {}, r)));
    lines(corners.tl,
      person(text(m, '00100010') || value(study, 'PatientName')),
      [text(m, '00100020') || value(study, 'PatientID'), date(text(m, '00100030')), text(m, '00100040')].filter(Boolean).join('  '),
      text(m, '00080080'));
    lines(corners.tr,
      text(m, '00081030') || value(study, 'StudyDescription'),
      [date(text(m, '00080020') || value(study, 'StudyDate')), time(text(m, '00080030'))].filter(Boolean).join(' '),
      (text(m, '00080050') || value(study, 'AccessionNumber')) && `Acc ${text(m, '00080050') || value(study, 'AccessionNumber')}`,
      text(m, '00080070'));
    const frames = viewport.frames();
    const i = viewport.index();
    const thickness = text(m, '00180050'), location = text(m, '00201041');
    lines(corners.bl,
      `${series?.modality ?? ''} Se ${series?.number ?? '?'}${series?.description ? ` · ${series.description}` : ''}`,
      frames.length ? h('span', { dataset: { test: 'overlay-position' } },
        `Im ${f.instance.number ?? '?'}  (${i + 1} / ${frames.length})`) : null,
      f && f.instance.frames > 1 ? `Frame ${f.frame} / ${f.instance.frames}` : null,
      location !== '' ? `Loc ${Number(location).toFixed(1)} mm` : null,
      thickness !== '' ? `Thick ${Number(thickness).toFixed(1)} mm` : null);
    const w = viewport.voi();
    const scale = viewport.scale();
    const { rotation = 0, flipHorizontal, flipVertical } = viewport.viewport.getViewPresentation?.() ?? {};
    lines(corners.br,
      w && !viewport.isColor() ? h('span', { dataset: { test: 'overlay-window' } }, `W ${round(w.width)}  L ${round(w.center)}`) : null,
      scale ? h('span', { dataset: { test: 'overlay-zoom' } }, `Zoom ${Math.round(scale * 100)}%`) : null,
      [rotation ? `Rot ${rotation}°` : '', flipHorizontal ? 'Flip H' : '', flipVertical ? 'Flip V' : '',
        viewport.invertedByUser() ? 'Inverted' : ''].filter(Boolean).join('  ') || null,
      viewport.cineRate() ? `Cine ${viewport.cineRate()} fps` : null);
  }
  return { element, update };
}
