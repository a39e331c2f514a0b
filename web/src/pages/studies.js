// The study list (#/studies?…): QIDO-RS /dicomweb/studies searched by patient name or ID, study date range, modality
// and accession number, a page at a time (limit/offset); the store orders by a column (QIDO orderby, across pages)
// where it can, the others sort the page on show; a row opens the viewer, its
// arrow shows the study's series with thumbnails; uploaders may delete a study (into the trash, with Undo) and correct
// its patient and study attributes (the row then shows the store's new values), administrators see who opened it (the Audit tab) and set its labels (access by project). The search lives in the address, so it survives a reload, a login
// and the way back from the viewer.
import { h, showError } from '../ui.js';
import { qido, value, values } from '../api.js';
import { navigate } from '../router.js';
import { can } from '../session.js';
import { deleteStudyDialog, deletedNotice } from '../trash.js';
import { labelsDialog } from '../labels.js';
import { shareDialog } from '../shares.js';
import { correctDialog } from '../correct.js';
import { studySeries } from '../viewer/series.js';
import { thumbnail } from '../viewer/thumbnails.js';
import '../viewer.css';

const MODALITIES = ['CT', 'MR', 'CR', 'DX', 'US', 'NM', 'PT', 'XA', 'RF', 'MG', 'OT', 'SC', 'SEG', 'RTDOSE'];
const PAGE_SIZES = [25, 50, 100, 200];
const COLUMNS = [
  ['PatientName', 'Patient'], ['PatientID', 'Patient ID'], ['StudyDate', 'Date'], ['ModalitiesInStudy', 'Modality'],
  ['StudyDescription', 'Description'], ['AccessionNumber', 'Accession'], ['NumberOfStudyRelatedSeries', 'Series'],
  ['NumberOfStudyRelatedInstances', 'Images'],
];

/** Columns the store can order by (QIDO-RS orderby, the dcm4chee extension): the order holds across pages. */
const SERVER_ORDER = new Set(['PatientName', 'PatientID', 'StudyDate', 'StudyDescription', 'AccessionNumber']);

const dicomDate = (iso) => (iso ? iso.replace(/-/g, '') : '');
const isoDate = (d) => (/^\d{8}$/.test(d ?? '') ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : d ?? '');
const person = (n) => String(n ?? '').replace(/\^+/g, ' ').trim();

/** The QIDO query for the form's values: names match anywhere, case-insensitively, unless wildcards are given. */
export function studyQuery(p) {
  const q = { fuzzymatching: 'true', includefield: ['StudyDescription', 'AccessionNumber', 'ModalitiesInStudy',
    'NumberOfStudyRelatedSeries', 'NumberOfStudyRelatedInstances', 'PatientBirthDate'] };
  if (p.name) q.PatientName = /[*?]/.test(p.name) ? p.name : `*${p.name}*`;
  if (p.id) q.PatientID = p.id;
  if (p.from || p.to) q.StudyDate = `${dicomDate(p.from)}-${dicomDate(p.to)}`;
  if (p.modality) q.ModalitiesInStudy = p.modality;
  if (p.accession) q.AccessionNumber = p.accession;
  return q;
}

export async function renderStudies(main, params) {
  sessionStorage.setItem('medjava.studies', location.hash); // the viewer's way back to this search
  const p = { name: params.name ?? '', id: params.id ?? params.PatientID ?? '', from: params.from ?? '', to: params.to ?? '',
    modality: params.modality ?? '', accession: params.accession ?? '' };
  // The form offers PAGE_SIZES; an address may ask for any page size up to 500.
  const limit = Number.isInteger(Number(params.limit)) && Number(params.limit) >= 1 ? Math.min(500, Number(params.limit)) : 25;
  const offset = Math.max(0, Number(params.offset) || 0);
  const sort = COLUMNS.some(([k]) => k === params.sort) ? params.sort : null;
  const dir = params.dir === 'desc' ? -1 : 1;

  const field = (name, attrs) => h('input', { name, value: p[name], dataset: { test: `search-${name}` }, ...attrs });
  const form = h('form', { class: 'search', role: 'search', onsubmit: (e) => {
    e.preventDefault();
    const f = Object.fromEntries(new FormData(form));
    navigate('/studies', clean({ ...f, limit: f.limit === '25' ? '' : f.limit }));
  } },
  h('label', {}, 'Patient name', field('name', { placeholder: 'Smith or Sm*th', autocomplete: 'off' })),
  h('label', {}, 'Patient ID', field('id', { autocomplete: 'off' })),
  h('label', {}, 'Study date from', field('from', { type: 'date' })),
  h('label', {}, 'to', field('to', { type: 'date' })),
  h('label', {}, 'Modality', h('select', { name: 'modality', dataset: { test: 'search-modality' } },
    h('option', { value: '' }, 'any'), MODALITIES.map((m) => h('option', { value: m, selected: m === p.modality }, m)))),
  h('label', {}, 'Accession', field('accession', { autocomplete: 'off' })),
  h('label', {}, 'Per page', h('select', { name: 'limit' }, [...new Set([...PAGE_SIZES, limit])].sort((a, b) => a - b)
    .map((n) => h('option', { value: n, selected: n === limit }, n)))),
  h('button', { type: 'submit', class: 'primary', dataset: { test: 'search-submit' } }, 'Search'),
  h('button', { type: 'button', onclick: () => navigate('/studies') }, 'Clear'));

  // data-hash names the search this status answers: a test (or a script) waits for the current address's answer,
  // not the previous page's, which stays on screen until the router replaces it.
  const status = h('p', { class: 'muted', dataset: { test: 'studies-status', hash: location.hash }, role: 'status' },
    'Searching…');
  const table = h('table', { class: 'studies', dataset: { test: 'studies' } });
  const pager = h('div', { class: 'pager' });
  main.append(h('div', { class: 'studies-page' }, h('h1', {}, 'Studies'), form, status, table, pager));

  let rows;
  try {
    // One more than a page tells whether a next page exists (QIDO gives no total).
    const orderby = sort && SERVER_ORDER.has(sort) ? `${dir < 0 ? '-' : ''}${sort}` : undefined;
    rows = await qido('studies', { ...studyQuery(p), orderby, limit: limit + 1, offset });
  } catch (e) {
    status.textContent = `The search failed: ${e.message}`;
    status.dataset.state = 'error';
    showError(e, 'Study search');
    return undefined;
  }
  const more = rows.length > limit;
  rows = rows.slice(0, limit);
  const pageSort = sort && !SERVER_ORDER.has(sort);
  if (pageSort) rows.sort((a, b) => dir * compare(cell(a, sort), cell(b, sort)));

  const range = !offset && !more ? `${rows.length} stud${rows.length === 1 ? 'y' : 'ies'}`
    : `Studies ${offset + 1}–${offset + rows.length}${more ? ' (more on the next page)' : ''}`;
  status.textContent = rows.length
    ? `${range}.${pageSort && (offset || more) ? ' This column orders the studies on this page only; the store orders'
      + ' by patient, ID, date, description and accession.' : ''}`
    : offset ? 'No more studies.' : 'No study matches.';
  status.dataset.state = 'done';

  const here = { ...clean(p), limit: limit === 25 ? '' : limit, offset: offset || '', sort: sort ?? '', dir: dir < 0 ? 'desc' : '' };
  table.append(h('thead', {}, h('tr', {}, h('th', { class: 'expand-col' }),
    COLUMNS.map(([k, label]) => h('th', { class: k === sort ? 'sorted' : '' },
      h('a', { href: '#', dataset: { test: `sort-${k}` },
        title: SERVER_ORDER.has(k) ? 'Order all studies by this column' : 'Sort the studies on this page',
        onclick: (e) => { e.preventDefault(); navigate('/studies', clean({ ...here, sort: k, dir: k === sort && dir > 0 ? 'desc' : '' })); } },
      label, k === sort ? (dir > 0 ? ' ▲' : ' ▼') : ''))),
    can('uploader') && h('th', { class: 'actions-col' }))));
  const tbody = h('tbody');
  table.append(tbody);
  for (const s of rows) tbody.append(...studyRows(s));

  pager.append(
    h('button', { disabled: offset === 0, dataset: { test: 'page-prev' },
      onclick: () => navigate('/studies', clean({ ...here, offset: Math.max(0, offset - limit) || '' })) }, '← Previous'),
    h('button', { disabled: !more, dataset: { test: 'page-next' },
      onclick: () => navigate('/studies', clean({ ...here, offset: offset + limit })) }, 'Next →'));
  return undefined;
}

function studyRows(s) {
  const uid = value(s, 'StudyInstanceUID');
  const open = () => navigate('/view', { study: uid });
  const detail = h('tr', { class: 'series-row', hidden: true }, h('td', { colspan: COLUMNS.length + 2 }));
  const arrow = h('button', { class: 'expand', title: 'Show the series', 'aria-expanded': 'false', dataset: { test: 'study-expand' },
    onclick: (e) => { e.stopPropagation(); toggle(); } }, '▸');
  async function toggle() {
    const show = detail.hidden;
    detail.hidden = !show;
    arrow.textContent = show ? '▾' : '▸';
    arrow.setAttribute('aria-expanded', String(show));
    if (!show || detail.dataset.loaded) return;
    detail.dataset.loaded = '1';
    const cellEl = detail.firstChild;
    cellEl.textContent = 'Loading the series…';
    try {
      const series = await studySeries(uid);
      cellEl.replaceChildren(h('div', { class: 'series-cards', dataset: { test: 'series-cards' } }, series.map((se) =>
        h('a', { class: 'series-card', href: `#/view?study=${encodeURIComponent(uid)}&series=${encodeURIComponent(se.uid)}`,
          dataset: { test: 'series-card', series: se.uid } },
        thumbnail(uid, se.uid, { alt: `series ${se.number ?? ''}` }),
        h('span', {}, `${se.modality} · Se ${se.number ?? '?'}`),
        h('span', { class: 'muted small' }, se.description || `${se.instances} image${se.instances === 1 ? '' : 's'}`)))));
    } catch (e) {
      cellEl.textContent = `The series could not be listed: ${e.message}`;
    }
  }
  const row = h('tr', { class: 'study', tabindex: 0, dataset: { test: 'study-row', study: uid }, title: 'Open in the viewer',
    onclick: open, onkeydown: (e) => { if (e.key === 'Enter') open(); if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') toggle(); } },
  h('td', { class: 'expand-col' }, arrow),
  COLUMNS.map(([k]) => h('td', { dataset: { col: k } }, display(s, k))),
  can('uploader') && h('td', { class: 'actions-col' },
    can('admin') && h('button', { type: 'button', dataset: { test: 'study-audit' },
      title: 'Who read, queried or exported this study: the audit trail',
      onclick: (e) => { e.stopPropagation(); navigate('/admin/audit', { study: uid }); },
      onkeydown: (e) => e.stopPropagation() }, 'Who opened this'),
    can('admin') && h('button', { type: 'button', dataset: { test: 'study-labels' },
      title: 'The labels that decide which projects see this study',
      onclick: (e) => { e.stopPropagation(); labelsDialog(uid, value(s, 'PatientID') ? `the study of ${value(s, 'PatientID')}` : 'the study'); },
      onkeydown: (e) => e.stopPropagation() }, 'Labels…'),
    h('button', { type: 'button', dataset: { test: 'study-share' },
      title: 'A link that opens this study read only, without an account, until it expires or is revoked',
      onclick: (e) => { e.stopPropagation(); shareDialog(uid, value(s, 'PatientID') ? `the study of ${value(s, 'PatientID')}` : 'the study'); },
      onkeydown: (e) => e.stopPropagation() }, 'Share…'),
    h('button', { type: 'button', dataset: { test: 'study-correct' },
      title: 'Correct the patient\'s or the study\'s attributes in the stored objects (the previous versions go to the trash)',
      onclick: (e) => { e.stopPropagation(); correct(s, row, detail); },
      onkeydown: (e) => e.stopPropagation() }, 'Correct…'),
    h('button', { class: 'danger', dataset: { test: 'study-delete' },
      title: 'Delete this study (into the trash, where it can be restored)',
      onclick: (e) => { e.stopPropagation(); remove(s, row, detail); },
      onkeydown: (e) => e.stopPropagation() }, 'Delete…'))); // Enter here is not the row's "open"
  return [row, detail];
}

/** Corrects a study after the dialog, then shows the store's new values in its row. */
async function correct(s, row, detail) {
  const uid = value(s, 'StudyInstanceUID');
  if (!await correctDialog(uid, value(s, 'PatientID') ? `the study of ${value(s, 'PatientID')}` : 'the study')) return;
  let fresh;
  try {
    [fresh] = await qido('studies', { StudyInstanceUID: uid, includefield: studyQuery({}).includefield });
  } catch (e) {
    showError(e, 'The corrected study');
    return;
  }
  if (!fresh || !row.isConnected) return;
  const [newRow, newDetail] = studyRows(fresh);
  row.replaceWith(newRow);
  detail.replaceWith(newDetail);
}

/** Deletes a study after the dialog; its rows leave the list and come back where they were on Undo. */
async function remove(s, row, detail) {
  const deletion = await deleteStudyDialog({ uid: value(s, 'StudyInstanceUID'), patientId: value(s, 'PatientID'),
    date: value(s, 'StudyDate'), description: value(s, 'StudyDescription'),
    instances: value(s, 'NumberOfStudyRelatedInstances'), series: value(s, 'NumberOfStudyRelatedSeries') });
  if (!deletion) return;
  const tbody = row.parentNode;
  const next = detail.nextSibling;
  row.remove();
  detail.remove();
  deletedNotice(deletion, value(s, 'PatientID') ? `The study of ${value(s, 'PatientID')}` : 'The study', () => {
    if (!tbody?.isConnected) return;
    tbody.insertBefore(row, next?.parentNode === tbody ? next : null);
    row.after(detail);
  });
}

function cell(s, k) {
  if (k === 'ModalitiesInStudy') return values(s, k).join(', ');
  const v = value(s, k);
  return typeof v === 'number' ? v : String(v ?? '');
}

function display(s, k) {
  if (k === 'PatientName') return person(value(s, k));
  if (k === 'StudyDate') return isoDate(value(s, k));
  return cell(s, k);
}

function compare(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined && v !== null));
