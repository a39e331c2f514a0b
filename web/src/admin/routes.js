// Routing (/admin/routes; admin role): the rules that forward what the store receives to a remote AE (C-STORE) or a
// STOW-RS endpoint (/routes/rules), the queue they fill with its dead-letter list (/routes/queue), and what was sent
// where (/routes/history). A rule is made and edited in a dialog the store validates (its 400 shown as it says it;
// a rule matching everything needs "Make it anyway", confirm=true); each rule can be enabled or disabled, removed,
// and run on a study at once. The queue is asked for again every few seconds while the tab is open. The store lists
// a STOW-RS destination's credentials as "(set)" and keeps them when that mark comes back for the same URL, so a
// rule is sent back as listed to edit, enable or disable it.
import { api } from '../api.js';
import { h, modal, notify, whileBusy } from '../ui.js';
import { navigate } from '../router.js';
import { confirmDialog } from './dialog.js';
import { formatTime } from './format.js';

const REFRESH_MS = 2000;
const LISTED = 100;
const MASKED = '(set)';
/** The de-identify job's option names (DeidentifyJob.OPTION_NAMES); none is the Basic Profile alone. */
const OPTIONS = ['clean-descriptors', 'clean-graphics', 'clean-structured-content', 'retain-device-identity',
  'retain-institution-identity', 'retain-longitudinal-full-dates', 'retain-longitudinal-modified-dates',
  'retain-patient-characteristics', 'retain-safe-private', 'retain-uids'];
/** The transfer syntaxes the store writes (RouteRule.TARGETS), by name. */
const SYNTAXES = [
  ['1.2.840.10008.1.2.1', 'Explicit VR Little Endian'], ['1.2.840.10008.1.2', 'Implicit VR Little Endian'],
  ['1.2.840.10008.1.2.2', 'Explicit VR Big Endian'], ['1.2.840.10008.1.2.4.70', 'JPEG Lossless (SV1)'],
  ['1.2.840.10008.1.2.4.80', 'JPEG-LS Lossless'], ['1.2.840.10008.1.2.4.90', 'JPEG 2000 Lossless'],
  ['1.2.840.10008.1.2.5', 'RLE Lossless'], ['1.2.840.10008.1.2.4.202', 'HTJ2K Lossless RPCL'],
  ['1.2.840.10008.1.2.4.201', 'HTJ2K Lossless'], ['1.2.840.10008.1.2.4.50', 'JPEG Baseline (lossy)'],
  ['1.2.840.10008.1.2.4.81', 'JPEG-LS Near-Lossless (lossy)'], ['1.2.840.10008.1.2.4.91', 'JPEG 2000 (lossy)'],
];
/** Match keys offered as you type (any DICOM keyword is accepted). */
const KEYS = ['SourceAE', 'Modality', 'StudyDescription', 'SeriesDescription', 'InstitutionName', 'StationName',
  'BodyPartExamined', 'ReferringPhysicianName', 'AccessionNumber', 'PatientID', 'SOPClassUID'];
const STUDY_UID = '[0-9]+(\\.[0-9]+)*';

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const rulePath = (name) => `/routes/rules/${encodeURIComponent(name)}`;
const taskPath = (id) => `/routes/tasks/${encodeURIComponent(id)}`;

export async function renderRoutes(box, params) {
  const rules = h('div', { dataset: { test: 'routes-rules' } });
  const counts = h('p', { class: 'muted', role: 'status', dataset: { test: 'routes-counts' } });
  const pending = h('div', { dataset: { test: 'routes-pending' } });
  const dead = h('div', { dataset: { test: 'routes-dead' } });
  const history = h('div', { dataset: { test: 'routes-history' } });
  let remotes = [];

  box.append(h('h2', {}, 'Routing rules'),
    h('p', { class: 'muted' }, 'What the store receives over the network (C-STORE, STOW-RS, retrieves) and a rule'
      + ' matches is forwarded to a remote PACS by C-STORE or to a DICOMweb STOW-RS endpoint, de-identified or'
      + ' transcoded on the way if the rule says so. A failed send is tried again later; after the store\'s last try'
      + ' it waits in the dead-letter list for you.'),
    rules,
    h('div', { class: 'row' }, h('button', { type: 'button', class: 'primary', dataset: { test: 'route-new' },
      onclick: () => edit(null) }, 'New rule…')),
    h('h2', {}, 'Queue'),
    h('div', { class: 'row' }, counts, h('button', { type: 'button', dataset: { test: 'routes-refresh' },
      title: 'the queue is asked again every 2 s; this asks for the history too',
      onclick: () => Promise.all([reloadQueue(), reloadHistory()]) }, 'Refresh')),
    h('h3', {}, 'Waiting, being sent, to be tried again'), pending,
    h('h3', {}, 'Dead letters'), dead,
    h('h2', {}, 'History'), historyForm(params.study ?? ''), history);

  async function edit(rule) {
    if (await ruleDialog(rule, remotes)) await Promise.all([reloadRules(), reloadQueue()]);
  }

  async function reloadRules() {
    try {
      const all = await api('/routes/rules');
      rules.replaceChildren(all.length ? rulesTable(all, { edit, reloadRules, reloadQueue })
        : h('p', { class: 'empty', dataset: { test: 'routes-empty' } }, 'No routing rule: the store forwards nothing.'));
    } catch (e) {
      rules.replaceChildren(h('p', { class: 'problem', dataset: { test: 'routes-problem' } }, e.message));
    }
    rules.dataset.state = 'done';
  }

  let busy = false;
  let shown = '';
  async function reloadQueue() {
    if (busy) return;
    busy = true;
    try {
      // one request per state: the newest 100 of all states could be sent tasks only
      const [queued, sending, failed, given] = await Promise.all(['queued', 'sending', 'failed', 'dead']
        .map((state) => api(`/routes/queue?state=${state}&limit=${LISTED}`)));
      // the same queue again is not drawn again (a row being pointed at, a selection, stay)
      const seen = JSON.stringify([queued.tasks, sending.tasks, failed.tasks, given]);
      if (seen === shown) return;
      shown = seen;
      const c = given.counts ?? {};
      counts.textContent = ['queued', 'sending', 'failed', 'dead', 'sent']
        .map((s) => `${c[s] ?? 0} ${s === 'failed' ? 'to retry' : s}`).join(' · ');
      // the four lists are read at once: a task that changed state between two of them is in both; its newest
      // reading is the one shown
      const newest = new Map();
      for (const t of [...queued.tasks, ...sending.tasks, ...failed.tasks, ...given.tasks]) {
        const had = newest.get(t.id);
        if (!had || String(t.updated ?? '') > String(had.updated ?? '')) newest.set(t.id, t);
      }
      const once = (t) => newest.get(t.id) === t;
      const waiting = [...sending.tasks, ...failed.tasks, ...queued.tasks].filter(once);
      const gone = given.tasks.filter(once);
      pending.replaceChildren(waiting.length ? tasksTable('routes-pending-table', waiting, actions)
        : h('p', { class: 'empty', dataset: { test: 'routes-pending-empty' } }, 'Nothing waits to be sent.'));
      dead.replaceChildren(gone.length ? tasksTable('routes-dead-table', gone, actions)
        : h('p', { class: 'empty', dataset: { test: 'routes-dead-empty' } }, 'No dead letters.'));
      pending.dataset.state = 'done';
      dead.dataset.state = 'done';
    } catch (e) {
      shown = '';
      counts.replaceChildren(h('span', { class: 'problem', dataset: { test: 'routes-queue-problem' } }, e.message));
    } finally {
      busy = false;
    }
  }

  async function reloadHistory() {
    const study = params.study?.trim();
    try {
      // a study's history (oldest first) or, without one, what was sent and given up lately
      const tasks = study ? (await api(`/routes/history?study=${encodeURIComponent(study)}`)).reverse()
        : (await Promise.all(['sent', 'dead'].map((s) => api(`/routes/queue?state=${s}&limit=${LISTED}`))))
          .flatMap((q) => q.tasks).sort((a, b) => String(b.updated).localeCompare(String(a.updated))).slice(0, LISTED);
      history.replaceChildren(h('p', { class: 'muted', dataset: { test: 'routes-history-status' } }, study
        ? `${plural(tasks.length, 'task')} of study ${study}, newest first.`
        : `The latest ${plural(tasks.length, 'instance')} sent or given up, newest first.`),
      tasks.length ? tasksTable('routes-history-table', tasks, actions) : '');
    } catch (e) {
      history.replaceChildren(h('p', { class: 'problem', dataset: { test: 'routes-history-problem' } }, e.message));
    }
    history.dataset.state = 'done';
  }

  /** Retry (dead or failed) and Remove, on any task row. */
  function actions(t) {
    const problem = h('div', { class: 'problem', dataset: { test: 'route-task-problem' } });
    const act = async (button, work) => {
      button.disabled = true;
      problem.textContent = '';
      try {
        await work();
        await Promise.all([reloadQueue(), reloadHistory()]);
      } catch (e) {
        problem.textContent = e.message;
        button.disabled = false;
      }
    };
    const retry = (button) => act(button, async () => {
      await api(`${taskPath(t.id)}/retry`, { method: 'POST' });
      notify(`Task ${t.id} queued again (to ${t.destination}).`, 'ok');
    });
    const remove = async (button) => {
      if (!await confirmDialog({ title: `Remove task ${t.id}?`, confirm: 'Remove the task', danger: true,
        text: t.state === 'sent' ? 'Its line leaves the study\'s routing history; what was sent stays sent.'
          : 'The instance is not sent to this destination; run the rule on the study to queue it again.' })) return;
      await act(button, async () => {
        await api(taskPath(t.id), { method: 'DELETE' });
        notify(`Task ${t.id} removed.`, 'ok');
      });
    };
    return [
      (t.state === 'dead' || t.state === 'failed') && h('button', { type: 'button', class: 'primary',
        dataset: { test: 'route-task-retry' }, title: 'Send it now, with a fresh count of tries',
        onclick: (e) => retry(e.currentTarget) }, 'Retry'),
      t.state !== 'sending' && h('button', { type: 'button', class: 'danger', dataset: { test: 'route-task-delete' },
        onclick: (e) => remove(e.currentTarget) }, 'Remove…'),
      problem];
  }

  function historyForm(study) {
    const input = h('input', { name: 'study', value: study, pattern: STUDY_UID, maxlength: 64, size: 50,
      autocomplete: 'off', placeholder: 'StudyInstanceUID (empty: the latest of every study)',
      dataset: { test: 'routes-history-study' } });
    return h('form', { class: 'inline', dataset: { test: 'routes-history-form' }, onsubmit: (e) => {
      e.preventDefault();
      const uid = input.value.trim();
      if (uid === (params.study ?? '')) reloadHistory(); // the same address: nothing to navigate, ask again
      else navigate('/admin/routes', uid ? { study: uid } : {});
    } }, h('label', {}, 'Study ', input),
    h('button', { type: 'submit', dataset: { test: 'routes-history-show' } }, 'Show'),
    study && h('button', { type: 'button', onclick: () => navigate('/admin/routes') }, 'All studies'));
  }

  api('/pacs/remotes').then((r) => { remotes = r; }).catch(() => { /* the dialog then offers none */ });
  await Promise.all([reloadRules(), reloadQueue(), reloadHistory()]);
  const timer = setInterval(reloadQueue, REFRESH_MS);
  return () => clearInterval(timer);
}

function rulesTable(all, { edit, reloadRules, reloadQueue }) {
  return h('table', { class: 'grid routes', dataset: { test: 'routes-table' } },
    h('thead', {}, h('tr', {}, ['Name', 'Match', 'Destination', 'On the way', 'Enabled', '']
      .map((t) => h('th', {}, t)))),
    h('tbody', {}, all.map((r) => ruleRow(r, { edit, reloadRules, reloadQueue }))));
}

function ruleRow(r, { edit, reloadRules, reloadQueue }) {
  const problem = h('div', { class: 'problem', dataset: { test: 'route-row-problem' } });
  const busy = whileBusy(problem);
  const toggle = (button) => busy(button, async () => {
    await api(`${rulePath(r.name)}${r.confirmed ? '?confirm=true' : ''}`, { method: 'PUT',
      json: { ...draftOf(r), enabled: !r.enabled } });
    notify(`Routing rule "${r.name}" ${r.enabled ? 'disabled: it queues nothing on receive' : 'enabled'}.`, 'ok');
    await reloadRules();
  });
  const run = async () => {
    if (await runDialog(r)) await reloadQueue();
  };
  const remove = async (button) => {
    if (!await confirmDialog({ title: `Remove "${r.name}"?`, confirm: 'Remove the rule', danger: true,
      text: 'The rule no longer forwards anything. Its tasks still in the queue are given up when their turn comes;'
        + ' what it sent stays in the history.' })) return;
    await busy(button, async () => {
      await api(rulePath(r.name), { method: 'DELETE' });
      notify(`Routing rule "${r.name}" removed.`, 'ok');
      await reloadRules();
    });
  };
  const match = Object.entries(r.match ?? {});
  return h('tr', { dataset: { test: 'route-rule', name: r.name, enabled: String(r.enabled) } },
    h('td', {}, h('strong', {}, r.name), r.confirmed && h('span', { class: 'badge', title: 'made although it'
      + ' matches everything the store receives' }, 'confirmed'),
    h('div', { class: 'muted small' }, `by ${r.createdBy ?? '?'}, ${formatTime(r.created)}`)),
    h('td', { dataset: { test: 'route-match' } }, match.length && !everything(r.match)
      ? match.map(([k, v]) => h('div', {}, h('code', {}, k), ' = ', h('code', {}, v)))
      : h('span', { class: 'warn' }, 'everything')),
    h('td', { class: 'uid', dataset: { test: 'route-destination' } }, destinationText(r.destination),
      r.destination.auth && h('div', { class: 'muted small' }, 'with credentials')),
    h('td', { dataset: { test: 'route-options' } }, optionsText(r)),
    h('td', { dataset: { test: 'route-enabled' } }, r.enabled ? 'yes'
      : h('span', { class: 'muted', title: 'queues nothing on receive; Run on a study still does' }, 'no')),
    h('td', { class: 'actions' },
      h('button', { type: 'button', dataset: { test: 'route-edit' }, onclick: () => edit(r) }, 'Edit…'),
      h('button', { type: 'button', dataset: { test: 'route-toggle' }, onclick: (e) => toggle(e.currentTarget) },
        r.enabled ? 'Disable' : 'Enable'),
      h('button', { type: 'button', dataset: { test: 'route-run' }, onclick: run }, 'Run on a study…'),
      h('button', { type: 'button', class: 'danger', dataset: { test: 'route-delete' },
        onclick: (e) => remove(e.currentTarget) }, 'Remove…'),
      problem));
}

const everything = (match) => Object.values(match ?? {}).every((p) => /^\**$/.test(p));

function destinationText(d) {
  return d.kind === 'dimse' ? `C-STORE to ${d.ae}` : `STOW-RS to ${d.url}`;
}

function optionsText(r) {
  const parts = [];
  if (r.deidentify) parts.push(`de-identified (Basic Profile${r.deidentify.length ? ` + ${r.deidentify.join(', ')}` : ''})`);
  if (r.transcode) parts.push(`transcoded to ${SYNTAXES.find(([uid]) => uid === r.transcode)?.[1] ?? r.transcode}`);
  return parts.length ? parts.join('; ') : h('span', { class: 'muted' }, 'as stored');
}

/** The body of PUT /routes/rules/{name} for a rule as listed (its credentials as the mark the store keeps). */
function draftOf(r) {
  return { match: r.match, destination: r.destination, deidentify: r.deidentify ?? null,
    transcode: r.transcode ?? null, enabled: r.enabled };
}

/** Makes (rule null) or edits a rule in a dialog; resolves the rule the store kept, or null. */
function ruleDialog(rule, remotes) {
  return new Promise((resolve) => {
    const d = rule?.destination ?? { kind: remotes.length ? 'dimse' : 'stow' };
    const name = h('input', { name: 'name', required: true, maxlength: 64, autocomplete: 'off', value: rule?.name ?? '',
      disabled: Boolean(rule), placeholder: 'ct-to-archive', dataset: { test: 'route-name' } });
    const conditions = h('div', { class: 'conditions', dataset: { test: 'route-conditions' } });
    const addCondition = (key = '', pattern = '') => {
      const line = h('div', { class: 'row', dataset: { test: 'route-condition' } },
        h('input', { name: 'key', value: key, list: 'route-keys', placeholder: 'Modality', autocomplete: 'off',
          'aria-label': 'DICOM keyword or SourceAE', dataset: { test: 'route-key' } }),
        ' = ',
        h('input', { name: 'pattern', value: pattern, maxlength: 256, placeholder: 'CT', autocomplete: 'off',
          'aria-label': 'pattern (* and ?)', dataset: { test: 'route-pattern' } }),
        h('button', { type: 'button', title: 'Remove this condition', onclick: () => line.remove() }, '×'));
      conditions.append(line);
    };
    Object.entries(rule?.match ?? {}).forEach(([k, v]) => addCondition(k, v));
    if (!rule) addCondition();

    const kind = h('select', { name: 'kind', dataset: { test: 'route-kind' } },
      h('option', { value: 'dimse' }, 'C-STORE to a remote PACS'), h('option', { value: 'stow' }, 'STOW-RS to a URL'));
    kind.value = d.kind;
    const ae = h('input', { name: 'ae', value: d.ae ?? remotes[0]?.aeTitle ?? '', list: 'route-remotes', maxlength: 16,
      autocomplete: 'off', dataset: { test: 'route-ae' } });
    const url = h('input', { name: 'url', type: 'url', value: d.url ?? '', size: 48, autocomplete: 'off',
      placeholder: 'https://pacs.example/dicomweb/studies', dataset: { test: 'route-url' } });
    const auth = h('input', { name: 'auth', type: 'password', autocomplete: 'off', size: 32, dataset: { test: 'route-auth' },
      placeholder: d.auth ? 'kept as set; type to replace' : 'Basic dXNlcjpwYXNz (optional)' });
    const aeLine = h('label', {}, 'Remote AE ', ae);
    const stowLines = h('div', {}, h('label', {}, 'URL ', url), ' ',
      h('label', { title: 'the Authorization header the endpoint needs; the store never shows it again' },
        'Authorization ', auth));
    const showKind = () => { aeLine.hidden = kind.value !== 'dimse'; stowLines.hidden = kind.value !== 'stow'; };
    kind.onchange = showKind;
    showKind();

    const deid = h('input', { type: 'checkbox', name: 'deidentify', checked: Boolean(rule?.deidentify),
      dataset: { test: 'route-deidentify' } });
    const options = h('fieldset', { class: 'deid-options' }, h('legend', {}, 'Options besides the Basic Profile'),
      OPTIONS.map((o) => h('label', {}, h('input', { type: 'checkbox', name: 'option', value: o,
        checked: Boolean(rule?.deidentify?.includes(o)), dataset: { test: `route-option-${o}` } }), ` ${o}`)));
    const showDeid = () => { options.hidden = !deid.checked; };
    deid.onchange = showDeid;
    showDeid();
    const transcode = h('select', { name: 'transcode', dataset: { test: 'route-transcode' } },
      h('option', { value: '' }, 'as stored'), SYNTAXES.map(([uid, label]) => h('option', { value: uid }, label)));
    transcode.value = rule?.transcode ?? '';
    const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: rule ? rule.enabled : true,
      dataset: { test: 'route-enabled-input' } });

    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'route-form-problem' } });
    const cancel = h('button', { type: 'button', dataset: { test: 'route-cancel' } }, 'Cancel');
    const save = h('button', { type: 'submit', class: 'primary', dataset: { test: 'route-save' } },
      rule ? 'Save' : 'Make the rule');
    const anyway = h('button', { type: 'button', class: 'danger', hidden: true, dataset: { test: 'route-confirm' },
      title: 'Make it although it matches everything the store receives (confirm=true)' }, 'Make it anyway');

    const draft = () => {
      const match = {};
      conditions.querySelectorAll('[data-test=route-condition]').forEach((line) => {
        const [k, v] = [...line.querySelectorAll('input')].map((i) => i.value.trim());
        if (k || v) match[k] = v;
      });
      const destination = kind.value === 'dimse' ? { kind: 'dimse', ae: ae.value.trim() }
        // an empty field keeps the credentials shown as set (the store keeps them for the same URL)
        : { kind: 'stow', url: url.value.trim(), auth: auth.value.trim() || (d.auth && url.value.trim() === d.url ? MASKED : null) };
      return { match, destination, enabled: enabled.checked, transcode: transcode.value || null,
        deidentify: deid.checked ? [...options.querySelectorAll('input:checked')].map((i) => i.value) : null };
    };

    async function send(confirmed) {
      problem.textContent = '';
      anyway.hidden = true;
      const target = name.value.trim();
      if (!target) { problem.textContent = 'A rule needs a name.'; return; }
      const controls = [save, anyway, cancel];
      controls.forEach((c) => { c.disabled = true; });
      try {
        const kept = await api(`${rulePath(target)}${confirmed || rule?.confirmed ? '?confirm=true' : ''}`,
          { method: 'PUT', json: draft() });
        notify(`Routing rule "${kept.name}" ${rule ? 'saved' : 'made'}.`, 'ok');
        close(kept);
      } catch (e) {
        problem.textContent = e.message;
        // the store's offer for a rule that matches everything: the same request with confirm=true
        if (e.status === 400 && /confirm=true/.test(e.message)) anyway.hidden = false;
      } finally {
        controls.forEach((c) => { c.disabled = false; });
      }
    }

    const form = h('form', { class: 'route-rule', onsubmit: (e) => { e.preventDefault(); send(false); } },
      h('h2', {}, rule ? `Edit "${rule.name}"` : 'New routing rule'),
      h('label', {}, 'Name ', name),
      h('h3', {}, 'Instances it takes'),
      h('p', { class: 'muted small' }, 'Each condition names a DICOM keyword (or SourceAE: who sent it) and a pattern'
        + ' with * and ?, regardless of case; an instance must meet all of them.'),
      conditions,
      h('button', { type: 'button', dataset: { test: 'route-add-condition' }, onclick: () => addCondition() },
        'Add a condition'),
      h('datalist', { id: 'route-keys' }, KEYS.map((k) => h('option', { value: k }))),
      h('h3', {}, 'Where it sends'),
      h('div', { class: 'row' }, kind, aeLine), stowLines,
      h('datalist', { id: 'route-remotes' }, remotes.map((r) => h('option', { value: r.aeTitle }, `${r.host}:${r.port}`))),
      h('h3', {}, 'On the way'),
      h('label', {}, deid, ' De-identify (PS3.15 Basic Profile; the same new UIDs on every try)'), options,
      h('label', {}, 'Transfer syntax ', transcode),
      h('p', {}, h('label', { title: 'a disabled rule queues nothing on receive; Run on a study still does' },
        enabled, ' Enabled')),
      problem,
      h('div', { class: 'buttons' }, cancel, anyway, save));
    const close = modal('route-dialog', form, resolve);
    cancel.onclick = () => close(null);
    anyway.onclick = () => send(true);
    (rule ? conditions.querySelector('input') ?? kind : name).focus();
  });
}

/** Asks for a StudyInstanceUID and queues its instances for the rule; resolves true when something was queued. */
function runDialog(r) {
  return new Promise((resolve) => {
    const study = h('input', { name: 'study', required: true, pattern: STUDY_UID, maxlength: 64, size: 50,
      autocomplete: 'off', placeholder: '1.2.840…', dataset: { test: 'route-run-study' } });
    const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'route-run-problem' } });
    const cancel = h('button', { type: 'button', dataset: { test: 'route-run-cancel' } }, 'Cancel');
    const ok = h('button', { type: 'submit', class: 'primary', dataset: { test: 'route-run-ok' } }, 'Queue the study');
    const form = h('form', { onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      ok.disabled = true;
      try {
        const q = await api(`${rulePath(r.name)}/run?study=${encodeURIComponent(study.value.trim())}`,
          { method: 'POST' });
        notify(h('span', { dataset: { test: 'route-run-notice' } }, `${r.name}: ${plural(q.queued, 'instance')} of`
          + ` study ${q.studyInstanceUid} queued${q.queued ? '' : ' (every one waits in the queue already)'}.`), 'ok');
        close(q.queued > 0);
      } catch (err) {
        problem.textContent = err.message;
        ok.disabled = false;
      }
    } },
    h('h2', {}, `Run "${r.name}" on a study`),
    h('p', {}, `Every instance of the study is queued for ${destinationText(r.destination)}, whether the rule would`
      + ' match it or is enabled; instances already waiting for this rule are not queued twice.'),
    h('label', { class: 'reason' }, 'StudyInstanceUID', study), problem,
    h('div', { class: 'buttons' }, cancel, ok));
    const close = modal('route-run-dialog', form, resolve, { escaped: false });
    cancel.onclick = () => close(false);
    study.focus();
  });
}

/** Tasks as rows: state, rule and destination, study and instance, tries, next attempt, last error, times. */
function tasksTable(test, tasks, actions) {
  return h('table', { class: 'grid route-tasks', dataset: { test } },
    h('thead', {}, h('tr', {}, ['Task', 'Rule → destination', 'Study / instance', 'Tries', 'Next attempt',
      'Last error or note', 'Changed', ''].map((t) => h('th', { class: t === 'Tries' ? 'num' : '' }, t)))),
    h('tbody', {}, tasks.map((t) => h('tr', { dataset: { test: 'route-task', task: t.id, state: t.state,
      study: t.studyInstanceUid } },
    h('td', {}, `${t.id} `, h('span', { class: `badge state-${t.state}`, dataset: { test: 'route-task-state' } },
      t.state === 'failed' ? 'to retry' : t.state)),
    h('td', { class: 'uid' }, h('div', {}, t.rule), h('div', { class: 'muted', dataset: { test: 'route-task-destination' } },
      t.destination)),
    h('td', { class: 'uid' }, h('a', { href: `#/admin/routes?study=${encodeURIComponent(t.studyInstanceUid)}`,
      title: 'this study\'s routing history', dataset: { test: 'route-task-study' } }, h('code', {}, t.studyInstanceUid)),
    h('div', { class: 'muted' }, h('code', {}, t.sopInstanceUid))),
    h('td', { class: 'num', dataset: { test: 'route-task-tries' }, title: 'tries since queued or retried (in all)' },
      t.attempts > t.tries ? `${t.tries} (${t.attempts} in all)` : String(t.tries)),
    h('td', { dataset: { test: 'route-task-next' } }, t.state === 'queued' || t.state === 'failed'
      ? formatTime(t.nextAttempt) : t.state === 'sending' ? `on ${t.node ?? '?'}` : ''),
    h('td', { class: 'reason', dataset: { test: 'route-task-error' } }, t.lastError ?? ''),
    h('td', { class: 'time', title: t.updated }, formatTime(t.updated)),
    h('td', { class: 'actions' }, actions(t))))));
}
