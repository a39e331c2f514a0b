// What an upload batch left in the store, to go on from: the folders and the DICOM studies it touched (from the
// directory listings, which carry the index's summary of each DICOM file, or from STOW-RS's answers).
import { api, qido, value } from '../api.js';
import { h, formatBytes } from '../ui.js';
import { imagesUrl } from './transport.js';

const MAX_LISTINGS = 30;

/** Studies of the stored items: uid → { uid, patient, description, date, modalities, files }. */
async function studiesOf(stored) {
  const studies = new Map();
  const touch = (uid, info) => {
    const s = studies.get(uid) ?? { uid, files: 0, modalities: new Set() };
    s.files++;
    if (info.patient) s.patient = info.patient;
    if (info.description) s.description = info.description;
    if (info.date) s.date = info.date;
    if (info.modality) s.modalities.add(info.modality);
    studies.set(uid, s);
  };
  // PUT: the listing of each folder that received files says which of them are DICOM and of which study.
  const byDir = new Map();
  for (const i of stored.filter((x) => x.mode === 'put')) {
    const dir = i.target.slice(0, i.target.lastIndexOf('/') + 1);
    if (!byDir.has(dir)) byDir.set(dir, new Set());
    byDir.get(dir).add(i.target.slice(dir.length));
  }
  for (const [dir, names] of [...byDir].slice(0, MAX_LISTINGS)) {
    try {
      const listing = await api(imagesUrl(dir.replace(/\/$/, '')) + '/', { headers: { Accept: 'application/json' } });
      for (const e of listing.entries ?? []) {
        if (names.has(e.name) && e.dicom?.StudyInstanceUID) {
          touch(e.dicom.StudyInstanceUID, { patient: e.dicom.PatientName, description: e.dicom.StudyDescription,
            date: e.dicom.StudyDate, modality: e.dicom.Modality });
        }
      }
    } catch { /* a folder that cannot be listed only leaves its studies out of the summary */ }
  }
  // STOW-RS: the answer named the study; QIDO describes it.
  const stowed = stored.filter((x) => x.mode === 'stow' && x.study);
  stowed.forEach((i) => touch(i.study, {}));
  if (stowed.length) {
    try {
      const uids = [...new Set(stowed.map((i) => i.study))];
      for (const s of await qido('studies', { StudyInstanceUID: uids.join('\\') })) {
        const known = studies.get(value(s, 'StudyInstanceUID'));
        if (!known) continue;
        known.patient = value(s, 'PatientName');
        known.description = value(s, 'StudyDescription');
        known.date = value(s, 'StudyDate');
        (s['00080061']?.Value ?? []).forEach((m) => known.modalities.add(m));
      }
    } catch { /* descriptions are a nicety */ }
  }
  return [...studies.values()];
}

/** The summary element for the finished items of a batch. */
export async function summary(items) {
  const stored = items.filter((i) => i.state === 'stored');
  const count = (s) => items.filter((i) => i.state === s).length;
  const bytes = stored.reduce((n, i) => n + i.size, 0);
  const parts = [`${stored.length} stored (${formatBytes(bytes)})`];
  for (const [s, word] of [['refused', 'refused by the store'], ['skipped', 'not sent'], ['failed', 'failed'],
    ['cancelled', 'cancelled']]) {
    if (count(s)) parts.push(`${count(s)} ${word}`);
  }
  const studies = await studiesOf(stored);
  const folders = [...new Set(stored.filter((i) => i.mode === 'put').map((i) => i.directory))];
  const stow = stored.some((i) => i.mode === 'stow');
  return h('section', { class: 'upload-summary', dataset: { test: 'upload-summary' } },
    h('h2', {}, 'Done: ', parts.join(', ')),
    folders.map((dir) => h('p', {}, 'Files are in ',
      h('a', { href: `#/browse/${dir}/`, dataset: { test: 'summary-folder' } }, `/images/${dir}/`),
      ' (', h('a', { href: imagesUrl(dir) + '/', target: '_blank', rel: 'noopener' }, 'the store\'s listing'), ').')),
    stow && h('p', {}, 'DICOM sent by STOW-RS is filed under ', h('a', { href: '#/browse/dicom/' }, '/images/dicom/'),
      ' by patient, study and series, like objects received from the network.'),
    studies.length > 0 && h('table', { class: 'grid', dataset: { test: 'summary-studies' } },
      h('thead', {}, h('tr', {}, h('th', {}, 'Study'), h('th', {}, 'Patient'), h('th', {}, 'Date'),
        h('th', {}, 'Modality'), h('th', {}, 'Files'), h('th', {}, ''))),
      h('tbody', {}, studies.map((s) => h('tr', {},
        h('td', { title: s.uid }, s.description || s.uid),
        h('td', {}, s.patient ?? ''),
        h('td', {}, formatDate(s.date)),
        h('td', {}, [...s.modalities].join(', ')),
        h('td', {}, String(s.files)),
        h('td', {}, h('a', { href: `#/view?study=${encodeURIComponent(s.uid)}` }, 'View'), ' · ',
          h('a', { href: `/ohif/viewer?StudyInstanceUIDs=${encodeURIComponent(s.uid)}`, target: '_blank',
            rel: 'noopener' }, 'OHIF ↗')))))));
}

function formatDate(d) {
  return d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : (d ?? '');
}
