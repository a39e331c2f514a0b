// The store's directory tree (#/browse/<dir>): the JSON listing of /images/<dir>/, a directory at a time, each DICOM
// file with the index's summary and a way into the viewer; uploaders may delete (after a confirmation) and find the
// upload page for the directory on show.
import { h, notify, showError, formatBytes } from '../ui.js';
import { api } from '../api.js';
import { can } from '../session.js';
import { navigate } from '../router.js';
import { encodePath } from '../viewer/series.js';
import '../viewer.css';

export async function renderBrowse(main, params, path) {
  const dir = decodeURIComponent(path.replace(/^\/browse\/?/, '')).replace(/^\/+|\/+$/g, '');
  const crumbs = h('nav', { class: 'crumbs', dataset: { test: 'crumbs' } },
    h('a', { href: '#/browse/' }, 'images'),
    dir.split('/').filter(Boolean).map((name, i, all) => ['/',
      h('a', { href: `#/browse/${all.slice(0, i + 1).map(encodeURIComponent).join('/')}` }, name)]));
  const status = h('p', { class: 'muted', dataset: { test: 'browse-status' }, role: 'status' }, 'Loading…');
  const table = h('table', { class: 'files', dataset: { test: 'files' } });
  main.append(h('div', { class: 'browse-page' },
    h('div', { class: 'browse-head' }, h('h1', {}, 'Files'), crumbs, h('span', { class: 'spacer' }),
      can('uploader') && h('a', { class: 'button', href: `#/upload${dir ? `?dir=${encodeURIComponent(dir)}` : ''}`,
        dataset: { test: 'browse-upload' } }, 'Upload here…')),
    status, table));

  let listing;
  try {
    listing = await api(`/images/${dir ? `${encodePath(dir)}/` : ''}`, { headers: { Accept: 'application/json' } });
  } catch (e) {
    status.textContent = e.status === 404 ? `There is no directory ${dir || '/'} in the store.` : `The directory could not be listed: ${e.message}`;
    status.dataset.state = 'error';
    if (e.status !== 404) showError(e, 'Files');
    return undefined;
  }
  const entries = [...(listing.entries ?? [])].sort((a, b) =>
    (a.kind === 'directory' ? 0 : 1) - (b.kind === 'directory' ? 0 : 1) || a.name.localeCompare(b.name, undefined, { numeric: true }));
  status.textContent = entries.length ? `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}` : 'This directory is empty.';
  status.dataset.state = 'done';
  table.append(h('thead', {}, h('tr', {}, ['Name', 'Kind', 'Size', 'Modified', 'DICOM', ''].map((t) => h('th', {}, t)))));
  const tbody = h('tbody');
  table.append(tbody);
  for (const e of entries) tbody.append(entryRow(dir, e));
  return undefined;
}

function entryRow(dir, e) {
  const path = dir ? `${dir}/${e.name}` : e.name;
  const d = e.dicom;
  const isDir = e.kind === 'directory';
  const isImage = /^image\/(gif|png|jpeg)$/.test(e.contentType ?? '');
  const name = isDir
    ? h('a', { href: `#/browse/${path.split('/').map(encodeURIComponent).join('/')}`, dataset: { test: 'dir-link' } }, `${e.name}/`)
    : h('a', { href: `/images/${encodePath(path)}`, target: '_blank', rel: 'noopener', title: 'The stored file' }, e.name);
  const summary = d ? [d.Modality, String(d.PatientName ?? '').replace(/\^+/g, ' '), String(d.StudyDate ?? '').replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'),
    d.Rows && `${d.Columns}×${d.Rows}`, d.NumberOfFrames > 1 && `${d.NumberOfFrames} frames`].filter(Boolean).join(' · ') : '';
  const actions = h('td', { class: 'row-actions' },
    d?.StudyInstanceUID && h('a', { class: 'button', dataset: { test: 'view-file' },
      href: `#/view?${new URLSearchParams({ study: d.StudyInstanceUID, series: d.SeriesInstanceUID, instance: d.SOPInstanceUID })}` }, 'View'),
    isImage && h('a', { class: 'button', href: `/images/${encodePath(path)}`, target: '_blank', rel: 'noopener' }, 'Open'),
    can('uploader') && h('button', { class: 'danger', dataset: { test: 'delete' }, onclick: () => remove(path, isDir, row) }, 'Delete'));
  const row = h('tr', { dataset: { test: 'file-row', name: e.name } },
    h('td', {}, name), h('td', {}, isDir ? 'directory' : (e.contentType ?? '')),
    h('td', { class: 'num' }, isDir ? '' : formatBytes(e.size ?? 0)),
    h('td', {}, e.modified ? new Date(e.modified).toLocaleString() : ''),
    h('td', { class: 'small' }, summary), actions);
  return row;
}

async function remove(path, isDir, row) {
  const what = isDir ? `the empty directory ${path}/` : path;
  if (!window.confirm(`Delete ${what} from the store? This cannot be undone.`)) return;
  try {
    await api(`/images/${encodePath(path)}${isDir ? '/' : ''}`, { method: 'DELETE' });
    row.remove();
    notify(`Deleted ${what}.`, 'ok');
  } catch (e) {
    showError(e, `Delete ${path}`);
  }
}
