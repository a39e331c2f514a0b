// The upload page (uploader role): files and whole folders, dropped or picked, into the store — each with its
// progress, the store's reason for every refusal, the rest stored — and at the end what was stored, with links.
// The queue lives at module level: uploads go on while the user looks at other pages, and this page shows them again.
import '../upload/upload.css';
import { h, formatBytes, notify } from '../ui.js';
import { fromDrop, fromInput } from '../upload/collect.js';
import { UploadQueue } from '../upload/queue.js';
import { summary } from '../upload/summary.js';

const queue = new UploadQueue({ concurrency: 3 });
const settings = { mode: 'put', directory: `uploads/${new Date().toISOString().slice(0, 10)}`, replace: false };
const STATES = ['waiting', 'sending', 'stored', 'refused', 'skipped', 'failed', 'cancelled'];
const WORDS = { waiting: 'waiting', sending: 'sending', stored: 'stored', refused: 'refused', skipped: 'not sent',
  failed: 'failed', cancelled: 'cancelled' };
const RESUME_NOTE = 'Files up to 8 MiB go in one request (sent again from the start if it breaks off); larger ones '
  + 'as resumable uploads in 4 MiB chunks, checked by their SHA-256: a dropped connection costs one chunk, and sending '
  + 'goes on by itself where the store got to.';

window.addEventListener('beforeunload', (e) => {
  if (queue.busy) e.preventDefault();
});

/** The folder under /images/: no empty, '.', '..' or hidden segments (the store refuses them). */
function checkDirectory(text) {
  const dir = text.trim().replace(/^\/*(images\/)?/, '').replace(/\/+$/, '');
  if (!dir) return { error: 'Choose a folder under /images/ (the store keeps no files at its top).' };
  const bad = dir.split('/').find((s) => !s || s.startsWith('.') || /[\\\x00-\x1f]/.test(s));
  if (bad !== undefined) return { error: `"${bad}" cannot be a folder name (empty, starting with ".", or with "\\").` };
  return { dir };
}

export function renderUpload(main, params = {}) {
  if (params.dir) settings.directory = params.dir; // "Upload here" from the file browser
  const page = h('div', { class: 'upload-page' });
  const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'upload-problem' } });

  // --- where to -----------------------------------------------------------------------------------------------
  const dirField = h('input', { value: settings.directory, size: 40, dataset: { test: 'upload-dir' },
    'aria-label': 'Folder under /images/', oninput: () => { problem.textContent = ''; } });
  const replaceBox = h('input', { type: 'checkbox', checked: settings.replace, dataset: { test: 'upload-replace' },
    onchange: () => { settings.replace = replaceBox.checked; } });
  const putOptions = h('div', { class: 'put-options' },
    h('label', {}, '/images/ ', dirField),
    h('label', { title: 'Without it, a file already stored at the same path is kept and this one is refused (412).' },
      replaceBox, ' Replace files that exist'));
  const modeRadio = (mode, label, detail) => h('label', { class: 'mode' },
    h('input', { type: 'radio', name: 'upload-mode', value: mode, checked: settings.mode === mode,
      dataset: { test: `upload-mode-${mode}` },
      onchange: () => { settings.mode = mode; putOptions.hidden = mode !== 'put'; } }),
    h('span', {}, h('b', {}, label), h('br'), h('small', {}, detail)));
  putOptions.hidden = settings.mode !== 'put';
  const where = h('fieldset', { class: 'where' }, h('legend', {}, 'Where to'),
    modeRadio('put', 'Into a folder of the store',
      'Keeps your folder structure. DICOM, PNG, JPEG and GIF; each file checked and decoded by the store.'),
    putOptions,
    modeRadio('stow', 'As DICOM objects, filed like images the network receives (STOW-RS)',
      'Under /images/dicom/<patient>/<study>/<series>/, indexed; an instance the store holds already is refused. '
      + 'DICOM only.'));

  // --- what -----------------------------------------------------------------------------------------------------
  const pickFiles = h('input', { type: 'file', multiple: true, hidden: true, dataset: { test: 'upload-files' },
    onchange: () => { start(fromInput(pickFiles.files)); pickFiles.value = ''; } });
  const pickFolder = h('input', { type: 'file', multiple: true, webkitdirectory: true, hidden: true,
    dataset: { test: 'upload-folder' }, onchange: () => { start(fromInput(pickFolder.files)); pickFolder.value = ''; } });
  const zone = h('div', { class: 'dropzone', tabindex: 0, title: RESUME_NOTE, dataset: { test: 'dropzone' } },
    h('p', { class: 'big' }, 'Drop files or whole folders here'),
    h('p', {}, h('button', { type: 'button', onclick: () => pickFiles.click() }, 'Choose files…'), ' ',
      h('button', { type: 'button', onclick: () => pickFolder.click() }, 'Choose a folder…')),
    h('p', { class: 'note' }, `Three files at a time. ${RESUME_NOTE}`),
    pickFiles, pickFolder);
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    start(fromDrop(e.dataTransfer));
  });

  async function start(collected) {
    const { files, unreadable } = await collected;
    let directory = null;
    if (settings.mode === 'put') {
      const d = checkDirectory(dirField.value);
      if (d.error) {
        problem.textContent = d.error;
        return;
      }
      directory = settings.directory = d.dir;
      dirField.value = d.dir;
    }
    if (!files.length && !unreadable.length) {
      notify('Nothing to upload: the folder is empty.');
      return;
    }
    queue.add(files, { mode: settings.mode, directory, replace: settings.replace });
    unreadable.forEach((u) => queue.skip(u.path, `not sent: ${u.reason}`, { mode: settings.mode, directory }));
    summaryBox.replaceChildren();
  }

  // --- progress ---------------------------------------------------------------------------------------------
  let filter = 'all';
  const overall = h('progress', { max: 1, value: 0, dataset: { test: 'upload-overall' } });
  const overallText = h('span', { class: 'overall-text', dataset: { test: 'upload-overall-text' } });
  const chips = h('div', { class: 'chips', role: 'tablist' });
  const stopped = h('p', { class: 'problem', dataset: { test: 'upload-stopped' } });
  const buttons = h('div', { class: 'buttons' },
    h('button', { type: 'button', dataset: { test: 'upload-cancel-all' }, onclick: () => queue.cancelAll() }, 'Cancel all'),
    h('button', { type: 'button', dataset: { test: 'upload-retry' }, onclick: () => queue.retry(),
      title: 'Send again the files that failed (no answer, store unavailable) or were cancelled' }, 'Try again'),
    h('button', { type: 'button', dataset: { test: 'upload-clear' }, onclick: () => { queue.clearFinished(); summaryBox.replaceChildren(); } },
      'Clear finished'));
  const tbody = h('tbody');
  const table = h('table', { class: 'grid files', dataset: { test: 'upload-list' } },
    h('thead', {}, h('tr', {}, h('th', {}, 'File'), h('th', { class: 'num' }, 'Size'), h('th', {}, 'Progress'),
      h('th', {}, 'State'), h('th', {}, 'Store\'s answer'), h('th', {}, ''))), tbody);
  const summaryBox = h('div');
  const rows = new Map();

  function row(item) {
    const bar = h('progress', { max: item.size || 1, value: 0 });
    const state = h('span', { class: 'state' });
    const reason = h('td', { class: 'reason' });
    const cancel = h('button', { type: 'button', class: 'icon', title: 'Cancel this file', dataset: { test: 'upload-cancel' },
      onclick: () => queue.cancel(item) }, '×');
    const name = item.mode === 'put' ? `${item.directory}/${item.path}` : item.path;
    const tr = h('tr', { dataset: { test: 'upload-row', path: item.path } },
      h('td', { class: 'path', title: name }, name), h('td', { class: 'num' }, formatBytes(item.size)),
      h('td', {}, bar), h('td', {}, state), reason, h('td', {}, cancel));
    const r = { tr, bar, state, reason, cancel };
    rows.set(item.id, r);
    update(item);
    return tr;
  }

  function update(item) {
    const r = rows.get(item.id);
    if (!r) return;
    r.tr.dataset.state = item.state;
    r.tr.hidden = filter !== 'all' && item.state !== filter;
    r.bar.value = item.loaded;
    r.state.textContent = item.state === 'sending' && item.size
      ? `sending ${Math.floor((100 * item.loaded) / item.size)}%`
      : WORDS[item.state] + (item.status && item.state !== 'stored' ? ` (${item.status || 'no answer'})` : '');
    r.cancel.hidden = item.state !== 'waiting' && item.state !== 'sending';
    if (item.state === 'stored') {
      r.reason.replaceChildren(item.replaced ? 'replaced the stored file · ' : '',
        item.mode === 'put' ? h('a', { href: item.href, target: '_blank', rel: 'noopener' }, 'open')
          : h('span', {}, 'filed under /images/dicom/'),
        ...(item.study ? [' · ', h('a', { href: `#/view?study=${encodeURIComponent(item.study)}` }, 'view study')] : []));
    } else {
      r.reason.textContent = item.reason;
    }
  }

  let frame = 0;
  function drawTotals() {
    frame = 0;
    const c = queue.counts();
    overall.max = c.bytes || 1;
    overall.value = c.sent;
    overallText.textContent = c.all ? `${formatBytes(c.sent)} of ${formatBytes(c.bytes)}` + (queue.busy ? ' …' : '') : '';
    chips.replaceChildren(...['all', ...STATES].filter((s) => s === 'all' || c[s] > 0).map((s) =>
      h('button', { type: 'button', role: 'tab', class: filter === s ? 'chip on' : 'chip', 'aria-selected': String(filter === s),
        dataset: { test: `upload-count-${s}` }, onclick: () => setFilter(s) },
      `${s === 'all' ? 'all' : WORDS[s]} ${c[s]}`)));
    stopped.textContent = queue.stopped ?? '';
    table.hidden = c.all === 0;
  }
  const scheduleTotals = () => { if (!frame) frame = requestAnimationFrame(drawTotals); };

  function setFilter(s) {
    filter = s;
    queue.items.forEach(update);
    drawTotals();
  }

  async function showSummary() {
    const done = queue.items.filter((i) => i.state !== 'waiting' && i.state !== 'sending');
    if (!done.length || queue.busy) return;
    summaryBox.replaceChildren(await summary(done));
  }

  const listeners = {
    added: (e) => {
      if (!e.detail.length) {
        rows.clear();
        tbody.replaceChildren(...queue.items.map(row));
      } else {
        tbody.append(...e.detail.map(row));
      }
      scheduleTotals();
    },
    item: (e) => { update(e.detail); scheduleTotals(); },
    progress: (e) => { update(e.detail); scheduleTotals(); },
    drained: () => { scheduleTotals(); showSummary(); },
    stopped: () => scheduleTotals(),
  };
  for (const [type, f] of Object.entries(listeners)) queue.addEventListener(type, f);

  tbody.append(...queue.items.map(row));
  drawTotals();
  showSummary();

  page.append(h('h1', {}, 'Upload'), where, problem, zone,
    h('div', { class: 'totals' }, overall, overallText, buttons), chips, stopped, table, summaryBox);
  main.append(page);
  return () => {
    for (const [type, f] of Object.entries(listeners)) queue.removeEventListener(type, f);
    if (frame) cancelAnimationFrame(frame);
  };
}
