// The change feed (/admin/changes): GET /changes?since=N&limit=M, newest first. The feed runs forwards from a
// number, so the page finds its end first (a few one-entry probes, doubling then halving), then shows a window of
// numbers (since, since + size]: numbers have gaps, so a window may hold fewer entries than its size. The window is
// in the address (#/admin/changes?since=N); without it, the latest. "Follow" asks for what came since every 5 s.
import { api } from '../api.js';
import { h } from '../ui.js';
import { navigate } from '../router.js';
import { formatTime } from './format.js';

const SIZE = 200;
const FOLLOW_MS = 5000;

const feed = (since, limit) => api(`/changes?since=${since}&limit=${limit}`);

/** The feed's last number (0 when empty): an exponential search for a number nothing follows, then a binary one. */
async function lastNumber() {
  let first = (await feed(0, 1)).changes[0];
  if (!first) return 0;
  let lo = first.seq; // a number that exists
  let step = 1;
  let hi;
  for (;;) { // nothing after hi
    const next = (await feed(lo + step, 1)).changes[0];
    if (!next) { hi = lo + step; break; }
    lo = next.seq;
    step *= 2;
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const next = (await feed(mid, 1)).changes[0];
    if (next) lo = next.seq;
    else hi = mid;
  }
  return lo;
}

export async function renderChanges(box, params) {
  const status = h('p', { class: 'muted', role: 'status', dataset: { test: 'changes-status' } }, 'Reading the feed…');
  const follow = h('input', { type: 'checkbox', dataset: { test: 'changes-follow' } });
  const nav = h('div', { class: 'row' });
  const table = h('div');
  box.append(h('h2', {}, 'Changes'),
    h('p', { class: 'muted' }, 'Every instance created, updated (its file replaced), deleted (removed, or into the'
      + ' trash), rejected (into the trash by an IOCM rejection note), restored, purged or routed (sent by a routing'
      + ' rule), numbered in commit order across the store\'s nodes — what systems that follow'
      + ' the store read from GET /changes.'),
    nav, status, table);

  let end;
  try {
    end = await lastNumber();
  } catch (e) {
    status.replaceChildren(h('span', { class: 'problem', dataset: { test: 'changes-problem' } }, e.message));
    return undefined;
  }
  const asked = Number(params.since);
  const since = Number.isInteger(asked) && asked >= 0 ? asked : Math.max(0, end - SIZE);
  const latest = since + SIZE >= end;
  nav.append(
    h('button', { type: 'button', disabled: since === 0, dataset: { test: 'changes-older' },
      onclick: () => navigate('/admin/changes', { since: Math.max(0, since - SIZE) }) }, '← Older'),
    h('button', { type: 'button', disabled: latest, dataset: { test: 'changes-newer' },
      onclick: () => navigate('/admin/changes', since + 2 * SIZE >= end ? {} : { since: since + SIZE }) }, 'Newer →'),
    h('button', { type: 'button', dataset: { test: 'changes-latest' },
      onclick: () => (params.since === undefined ? refresh() : navigate('/admin/changes')) }, 'Latest'),
    latest && h('label', { title: `ask the store for new changes every ${FOLLOW_MS / 1000} s` }, follow, ' Follow'));

  const tbody = h('tbody');
  table.append(h('table', { class: 'grid changes', dataset: { test: 'changes-table' } },
    h('thead', {}, h('tr', {}, ['No.', 'Kind', 'Time', 'Study', 'Series', 'Instance', 'Path', 'Trash']
      .map((t) => h('th', {}, t)))), tbody));

  let shown = 0;
  let last = since;
  let busy = false;
  async function more(until) {
    // A window's entries come in pages of the feed (at most 10000 each; a window is far smaller).
    const page = await feed(last, SIZE);
    const entries = page.changes.filter((c) => until === undefined || c.seq <= until);
    if (entries.length) last = entries[entries.length - 1].seq;
    tbody.prepend(...entries.reverse().map(changeRow));
    shown += entries.length;
    if (shown) status.textContent = `${shown} change${shown === 1 ? '' : 's'} numbered ${since + 1} to ${until ?? last},`
      + ' newest first.';
    else status.textContent = end ? `No changes numbered ${since + 1} to ${until ?? since + SIZE}.` : 'No changes yet.';
    status.dataset.state = 'done';
    status.dataset.last = String(last);
  }
  async function refresh() {
    if (busy) return;
    busy = true;
    try {
      await more(latest ? undefined : since + SIZE);
    } catch (e) {
      status.replaceChildren(h('span', { class: 'problem', dataset: { test: 'changes-problem' } }, e.message));
    } finally {
      busy = false;
    }
  }
  await refresh();
  const timer = setInterval(() => { if (follow.checked) refresh(); }, FOLLOW_MS);
  return () => clearInterval(timer);
}

function changeRow(c) {
  const code = (v) => (v ? h('code', {}, v) : '');
  return h('tr', { dataset: { test: 'change-row', kind: c.kind, seq: c.seq, study: c.StudyInstanceUID ?? '' } },
    h('td', { class: 'num' }, c.seq),
    h('td', {}, h('span', { class: `badge kind-${c.kind}`, dataset: { test: 'change-kind' } }, c.kind)),
    h('td', { class: 'time', title: c.at }, formatTime(c.at)),
    h('td', { class: 'uid' }, code(c.StudyInstanceUID)),
    h('td', { class: 'uid' }, code(c.SeriesInstanceUID)),
    h('td', { class: 'uid' }, code(c.SOPInstanceUID)),
    h('td', { class: 'uid' }, code(c.path)),
    h('td', { class: 'uid', dataset: { test: 'change-trash' } }, code(c.trashId)));
}
