// The audit trail (/admin/audit): GET /audit/events, newest first, filtered by study, patient, user and type — "who
// opened this study". The filter is in the address (#/admin/audit?study=…), so the study list's "Who opened this"
// links here. Reads are counted per window (one event per user, door and study); the search records the open window
// first, so the list holds every read up to now. "Older" pages on with the last event's number (before=seq).
import { api } from '../api.js';
import { h } from '../ui.js';
import { navigate } from '../router.js';
import { formatTime } from './format.js';

const TYPES = ['read', 'query', 'export', 'write', 'login', 'admin'];
const FIELDS = [['study', 'Study Instance UID'], ['patient', 'Patient ID'], ['user', 'User or AE title']];
const LIMIT = 100;
const OUTCOMES = { 0: 'success', 4: 'refused', 8: 'failed', 12: 'failed badly' };

export async function renderAudit(box, params) {
  const inputs = Object.fromEntries(FIELDS.map(([k, label]) => [k, h('input', { name: k, value: params[k] ?? '',
    placeholder: label, 'aria-label': label, dataset: { test: `audit-${k}` } })]));
  const type = h('select', { name: 'type', 'aria-label': 'Type', dataset: { test: 'audit-type' } },
    h('option', { value: '' }, 'Any type'),
    TYPES.map((t) => h('option', { value: t, selected: params.type === t }, t)));
  const form = h('form', { class: 'row', dataset: { test: 'audit-form' }, onsubmit: (e) => {
    e.preventDefault();
    const asked = Object.fromEntries([...FIELDS.map(([k]) => [k, inputs[k].value.trim()]), ['type', type.value]]
      .filter(([, v]) => v));
    navigate('/admin/audit', asked);
  } }, FIELDS.map(([k]) => inputs[k]), type,
  h('button', { type: 'submit', class: 'primary', dataset: { test: 'audit-search' } }, 'Search'),
  h('button', { type: 'button', onclick: () => navigate('/admin/audit') }, 'Clear'));
  const status = h('p', { class: 'muted', role: 'status', dataset: { test: 'audit-status' } }, 'Searching the trail…');
  const table = h('div');
  const pager = h('div', { class: 'row' });
  box.append(h('h2', {}, 'Audit'),
    h('p', { class: 'muted' }, 'Who read, queried, exported or changed what, through which door, from where: the'
      + ' store\'s audit trail (audit.log keeps the full DICOM audit messages). Reads are counted per user, door and'
      + ' study over a window of time: one event says how many instances and requests.'),
    form, status, table, pager);

  const query = new URLSearchParams({ limit: String(LIMIT) });
  for (const k of ['study', 'patient', 'user', 'type', 'before']) if (params[k]) query.set(k, params[k]);
  let events;
  try {
    events = await api(`/audit/events?${query}`);
  } catch (e) {
    status.replaceChildren(h('span', { class: 'problem', dataset: { test: 'audit-problem' } }, e.message));
    status.dataset.state = 'error';
    return undefined;
  }
  status.textContent = events.length ? `${events.length} event${events.length === 1 ? '' : 's'}, newest first`
    + `${events.length === LIMIT ? ' (older ones on the next page)' : ''}.` : 'No events match.';
  status.dataset.state = 'done';
  status.dataset.hash = location.hash;
  if (events.length) {
    table.append(h('table', { class: 'grid audit', dataset: { test: 'audit-table' } },
      h('thead', {}, h('tr', {}, ['Time', 'Type', 'User', 'Client', 'Door', 'Study', 'Patient', 'Outcome',
        'Description'].map((t) => h('th', {}, t)))),
      h('tbody', {}, events.map(eventRow))));
  }
  if (events.length === LIMIT) {
    const last = events[events.length - 1].seq;
    pager.append(h('button', { type: 'button', dataset: { test: 'audit-older' },
      onclick: () => navigate('/admin/audit', { ...withoutBefore(params), before: last }) }, 'Older →'));
  }
  return undefined;
}

function withoutBefore(params) {
  const { before, ...rest } = params;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v));
}

function eventRow(e) {
  const code = (v) => (v ? h('code', {}, v) : '');
  const outcome = OUTCOMES[e.outcome] ?? String(e.outcome);
  return h('tr', { dataset: { test: 'audit-row', type: e.type, user: e.user ?? '', door: e.door ?? '',
    outcome: String(e.outcome) } },
  h('td', { class: 'time', title: e.time }, formatTime(e.time)),
  h('td', {}, h('span', { class: `badge audit-${e.type}` }, e.type)),
  h('td', { dataset: { test: 'audit-row-user' } }, e.user ?? ''),
  h('td', {}, e.address ?? ''),
  h('td', { dataset: { test: 'audit-row-door' } }, e.door ?? ''),
  h('td', { class: 'uid' }, code(e.StudyInstanceUID)),
  h('td', {}, e.PatientID ?? ''),
  h('td', {}, h('span', { class: `badge ${e.outcome === 0 ? 'state-done' : 'state-failed'}` }, outcome)),
  h('td', { dataset: { test: 'audit-row-description' } }, e.description ?? ''));
}
