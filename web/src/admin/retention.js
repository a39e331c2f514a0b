// Retention rules (/admin/retention; admin role): studies that go to the trash once they are old enough, by their
// StudyDate or by reception, optionally of one modality, from one source AE title, with one label (/retention/rules). A new rule is previewed before it is made
// (POST /retention/rules/preview: the studies it would take now and their share of the store); the store's guard
// refuses a rule over its share in its own words, and the administrator may make it anyway (confirm=true). Each rule
// can be previewed again, run now (its studies go to the trash, restorable there) and removed; the list shows what
// its latest run did, in the background or asked for.
import { api } from '../api.js';
import { h, notify, whileBusy } from '../ui.js';
import { confirmDialog } from './dialog.js';
import { formatDicomDate, formatTime } from './format.js';

const MODALITIES = ['CT', 'MR', 'CR', 'DX', 'US', 'NM', 'PT', 'XA', 'RF', 'MG', 'OT', 'SC', 'SEG', 'RTDOSE'];
const BASES = { STUDY_DATE: 'StudyDate', RECEIVED: 'reception' };
/** The studies a preview lists; the counts cover them all. */
const SHOWN = 100;

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const percent = (share) => `${Math.round(share * 1000) / 10}%`;
const rules = '/retention/rules';

export async function renderRetention(box) {
  const list = h('div', { dataset: { test: 'retention-list' } });
  const preview = h('div', { class: 'retention-preview', dataset: { test: 'retention-preview' } });
  box.append(h('h2', {}, 'Retention rules'),
    h('p', { class: 'muted' }, 'A rule moves the studies older than its age — by their StudyDate, or by when the store'
      + ' received them — to the trash, where they can be restored until their purge time. Enabled rules run every'
      + ' hour on the store; a rule that would take more than the store\'s guard allows at once is refused unless you'
      + ' confirm it, and held at a run if it grew over it.'),
    list, newRuleForm(reload, preview), preview);

  async function reload() {
    try {
      const all = await api(rules);
      list.replaceChildren(all.length ? rulesTable(all, reload, preview)
        : h('p', { class: 'empty', dataset: { test: 'retention-empty' } }, 'No retention rule: the store keeps every'
          + ' study until someone deletes it.'));
    } catch (e) {
      list.replaceChildren(h('p', { class: 'problem', dataset: { test: 'retention-problem' } }, e.message));
    }
    list.dataset.state = 'done';
  }
  await reload();
}

function rulesTable(all, reload, preview) {
  return h('table', { class: 'grid retention', dataset: { test: 'retention-table' } },
    h('thead', {}, h('tr', {}, ['Name', 'Older than', 'Only', 'Enabled', 'Last run', '']
      .map((t) => h('th', {}, t)))),
    h('tbody', {}, all.map((r) => ruleRow(r, reload, preview))));
}

function ruleRow(r, reload, preview) {
  const problem = h('div', { class: 'problem', dataset: { test: 'retention-row-problem' } });
  const busy = whileBusy(problem);
  const show = (button) => busy(button, async () => {
    showPreview(preview, await api(`${rules}/${encodeURIComponent(r.id)}/preview`), `What "${r.name}" would take now`);
  });
  const run = async (button) => {
    if (!await confirmDialog({ title: `Run "${r.name}" now?`, confirm: 'Run now', danger: true,
      text: `The studies older than ${ageText(r)}${onlyText(r) ? ` (${onlyText(r)})` : ''} go to the trash now; they`
        + ' can be restored there until their purge time.' })) return;
    await busy(button, async () => {
      const o = await api(`${rules}/${encodeURIComponent(r.id)}/run`, { method: 'POST' });
      notify(`${r.name}: ${runText(o)}`, o.outcome === 'held' ? 'error' : 'ok');
      await reload();
    });
  };
  const remove = async (button) => {
    if (!await confirmDialog({ title: `Remove "${r.name}"?`, confirm: 'Remove the rule', danger: true,
      text: 'The rule no longer runs. What it already moved to the trash stays there.' })) return;
    await busy(button, async () => {
      await api(`${rules}/${encodeURIComponent(r.id)}`, { method: 'DELETE' });
      notify(`Retention rule "${r.name}" removed.`, 'ok');
      await reload();
    });
  };
  return h('tr', { dataset: { test: 'retention-rule', rule: r.id, name: r.name } },
    h('td', {}, r.name, r.confirmed && h('span', { class: 'badge', title: 'made although it took more than the'
      + ' guard\'s share of the store at once' }, 'confirmed'),
    h('div', { class: 'muted small' }, `by ${r.createdBy ?? '?'}, ${formatTime(r.created)}`)),
    h('td', { dataset: { test: 'retention-age' } }, ageText(r)),
    h('td', { dataset: { test: 'retention-only' } }, onlyText(r) || h('span', { class: 'muted' }, 'any study')),
    h('td', {}, r.enabled ? 'yes' : h('span', { class: 'muted', title: 'runs only when asked' }, 'no')),
    h('td', { dataset: { test: 'retention-last-run', outcome: r.lastRun?.outcome ?? '' } }, r.lastRun
      ? [h('div', {}, runText(r.lastRun)), h('div', { class: 'muted small' }, formatTime(r.lastRun.at))]
      : h('span', { class: 'muted' }, 'not yet')),
    h('td', { class: 'actions' },
      h('button', { type: 'button', dataset: { test: 'retention-show' }, onclick: (e) => show(e.currentTarget) },
        'Preview'),
      h('button', { type: 'button', dataset: { test: 'retention-run' }, onclick: (e) => run(e.currentTarget) },
        'Run now…'),
      h('button', { type: 'button', class: 'danger', dataset: { test: 'retention-delete' },
        onclick: (e) => remove(e.currentTarget) }, 'Remove…'),
      problem));
}

function ageText(r) {
  return `${plural(r.olderThanDays, 'day')} by ${BASES[r.basis] ?? r.basis}`;
}

/** What narrows a rule besides its age, in words ('' when nothing does). */
function onlyText(r) {
  return [r.modality && `a ${r.modality} series`, r.sourceAe && `sent by ${r.sourceAe}`,
    r.label && `labelled ${r.label}`].filter(Boolean).join(', ');
}

/** What a run did (a Run or a rule's lastRun), in words. */
function runText(o) {
  if (o.outcome === 'deleted') {
    return `${plural(o.studies, 'study', 'studies')} (${plural(o.instances, 'instance')}) moved to the trash`;
  }
  if (o.outcome === 'nothing') return 'nothing to take';
  return o.message ?? o.outcome;
}

/** The form of a new rule: Preview first (the dry run of exactly these values), then Make the rule. */
function newRuleForm(reload, preview) {
  const name = h('input', { name: 'name', required: true, maxlength: 64, autocomplete: 'off',
    placeholder: 'CR after ten years', dataset: { test: 'retention-name' } });
  const basis = h('select', { name: 'basis', dataset: { test: 'retention-basis' } },
    h('option', { value: 'STUDY_DATE' }, 'its StudyDate'), h('option', { value: 'RECEIVED' }, 'its reception'));
  const days = h('input', { name: 'days', type: 'number', min: 1, max: 73000, required: true, value: '3652',
    dataset: { test: 'retention-days' } });
  const modality = h('select', { name: 'modality', dataset: { test: 'retention-modality' } },
    h('option', { value: '' }, 'any'), MODALITIES.map((m) => h('option', { value: m }, m)));
  const sourceAe = h('input', { name: 'sourceAe', maxlength: 16, size: 12, autocomplete: 'off', placeholder: 'any',
    title: 'only studies with an instance this AE title sent by DICOM (its Source AE Title)',
    dataset: { test: 'retention-source-ae' } });
  const labels = h('datalist', { id: 'retention-labels' });
  const label = h('input', { name: 'label', maxlength: 64, size: 12, autocomplete: 'off', placeholder: 'any',
    pattern: '[A-Za-z0-9_\\-]+', list: 'retention-labels', title: 'only studies with this label',
    dataset: { test: 'retention-label' } });
  api('/index/labels').then((counts) => labels.replaceChildren(...Object.keys(counts).sort()
    .map((l) => h('option', { value: l })))).catch(() => {}); // suggestions only: typing a label works without
  const enabled = h('input', { type: 'checkbox', name: 'enabled', checked: 'checked', // the default form.reset() restores
    dataset: { test: 'retention-enabled' } });
  const problem = h('p', { class: 'problem', role: 'alert', dataset: { test: 'retention-form-problem' } });
  const save = h('button', { type: 'button', class: 'primary', disabled: true, dataset: { test: 'retention-save' },
    title: 'Preview the rule first: what it would take now' }, 'Make the rule');
  const confirm = h('button', { type: 'button', class: 'danger', hidden: true, dataset: { test: 'retention-confirm' },
    title: 'Make it although the store\'s guard holds it (confirm=true): its runs take that much at once' },
  'Make it anyway');
  let previewed = null; // the draft the preview on show is of

  const draft = () => ({ name: name.value.trim(), basis: basis.value, olderThanDays: Number(days.value),
    modality: modality.value || undefined, sourceAe: sourceAe.value.trim() || undefined,
    label: label.value.trim() || undefined, enabled: enabled.checked });
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const changed = () => {
    const now = draft();
    save.disabled = !previewed || !same({ ...now, enabled: true }, { ...previewed, enabled: true });
    confirm.hidden = true;
  };

  const form = h('form', { class: 'retention-new', dataset: { test: 'retention-form' }, oninput: changed,
    onchange: changed, onsubmit: async (e) => {
      e.preventDefault();
      problem.textContent = '';
      const d = draft();
      try {
        showPreview(preview, await api(`${rules}/preview`, { method: 'POST', json: d }), `What "${d.name}" would take now`);
        previewed = d;
      } catch (err) {
        previewed = null;
        problem.textContent = err.message;
      }
      changed();
    } },
  h('h3', {}, 'New rule'),
  h('div', { class: 'row' },
    h('label', {}, 'Name ', name),
    h('label', {}, 'Older than ', days, ' days by ', basis),
    h('label', {}, 'Modality ', modality),
    h('label', {}, 'Sent by AE ', sourceAe),
    h('label', {}, 'Label ', label, labels),
    h('label', { title: 'an enabled rule runs every hour; a disabled one only when you ask' }, enabled, ' Enabled')),
  problem,
  h('div', { class: 'buttons' },
    h('button', { type: 'submit', dataset: { test: 'retention-preview-draft' } }, 'Preview'), save, confirm));

  async function make(confirmed) {
    const d = draft();
    save.disabled = true;
    confirm.disabled = true;
    problem.textContent = '';
    try {
      const rule = await api(`${rules}${confirmed ? '?confirm=true' : ''}`, { method: 'POST', json: d });
      notify(`Retention rule "${rule.name}" made${rule.enabled ? ': it runs every hour' : ''}.`, 'ok');
      form.reset();
      previewed = null;
      preview.replaceChildren();
      await reload();
    } catch (e) {
      problem.textContent = e.message;
      // the guard: the same request meets it again; confirming is the store's offer
      if (e.status === 409 && /confirm=true/.test(e.message)) confirm.hidden = false;
    } finally {
      confirm.disabled = false;
      save.disabled = !previewed;
    }
  }
  save.onclick = () => make(false);
  confirm.onclick = async () => {
    if (!await confirmDialog({ title: 'Make the rule anyway?', confirm: 'Make it anyway', danger: true,
      text: 'The store\'s guard holds this rule: it takes a large share of the store at once. Made anyway, each of its'
        + ' runs moves everything it selects to the trash.' })) return;
    make(true);
  };
  return form;
}

/** A dry run on show: the counts, the guard's word, and the studies (the first SHOWN). */
function showPreview(box, p, title) {
  const studies = p.studies ?? [];
  box.replaceChildren(...[h('h3', {}, title),
    h('p', { dataset: { test: 'retention-preview-counts', studies: studies.length, instances: p.instances } },
      studies.length ? `${plural(studies.length, 'study', 'studies')}, ${plural(p.instances, 'instance')}: `
        + `${percent(p.share)} of the store's ${plural(p.storeInstances, 'instance')}.` : 'No study is old enough: it'
        + ' would take nothing now.'),
    p.overGuard && h('p', { class: 'warn', dataset: { test: 'retention-preview-guard' } }, 'Over the store\'s guard:'
      + ' it would take more than the store allows at once, so the store refuses it unless you confirm it.'),
    studies.length > 0 && h('table', { class: 'grid', dataset: { test: 'retention-preview-studies' } },
      h('thead', {}, h('tr', {}, ['Study', 'Date', 'Modalities', 'Received', 'Instances']
        .map((t) => h('th', { class: t === 'Instances' ? 'num' : '' }, t)))),
      h('tbody', {}, studies.slice(0, SHOWN).map((s) => h('tr', { dataset: { test: 'retention-preview-study',
        study: s.StudyInstanceUID } },
      h('td', { class: 'uid' }, h('code', {}, s.StudyInstanceUID)),
      h('td', {}, formatDicomDate(s.StudyDate)),
      h('td', {}, String(s.modalities ?? '').split('\\').filter(Boolean).join(', ')),
      h('td', {}, formatTime(s.lastReceived)),
      h('td', { class: 'num' }, s.instances))))),
    studies.length > SHOWN && h('p', { class: 'muted' }, `and ${studies.length - SHOWN} more.`)].filter(Boolean));
  box.dataset.state = 'done';
}
