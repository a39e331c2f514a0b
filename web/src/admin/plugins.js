// Filter plugins: the repository's manifest (GET /filters) with each plugin's id, version, state, SHA-256 and
// filters; install or replace by uploading a JAR (POST /filters, under the Plugin-Id of its manifest; a card's
// Replace: PUT /filters/{id}.jar; a JAR that does not load is refused with the registry's reason and the running
// version stays), suspend and resume (every filter of the plugin, at once on
// every node, kept across restarts), remove — each with a confirmation where it cannot be undone.
import { api } from '../api.js';
import { h, notify, showError, formatBytes } from '../ui.js';
import { confirmDialog } from './dialog.js';

export async function renderPlugins(box) {
  const list = h('div', { dataset: { test: 'plugins' } });
  const header = h('p', { class: 'muted' });
  const install = installForm(() => reload());
  box.append(h('h2', {}, 'Filter plugins'), header, install, list);

  async function reload() {
    let manifest;
    try {
      manifest = await api('/filters');
    } catch (e) {
      list.replaceChildren(h('p', { class: 'problem' }, e.message));
      return;
    }
    install.known = new Map(manifest.plugins.map((p) => [p.id, p]));
    header.textContent = `${manifest.plugins.length} plugins, filter API ${manifest.filterApiVersion}. Changes take `
      + 'effect at once on every node, without a restart; a suspension is kept across restarts.';
    list.replaceChildren(...manifest.plugins.map((p) => pluginCard(p, reload)));
  }
  await reload();
}

/** A plugin's state as people think of it: suspended when all its filters are. */
function stateOf(p) {
  if (p.state !== 'ACTIVE') return p.state.toLowerCase();
  const filters = p.filters ?? [];
  if (filters.length && filters.every((f) => f.state === 'SUSPENDED')) return 'suspended';
  if (filters.some((f) => f.state === 'SUSPENDED')) return 'partly suspended';
  return 'active';
}

function pluginCard(p, reload) {
  const state = stateOf(p);
  const suspended = state === 'suspended' || state === 'partly suspended';
  const busy = (button, f) => async () => {
    button.disabled = true;
    try { await f(); } catch (e) { showError(e, p.id); } finally { button.disabled = false; }
  };
  const replaceInput = h('input', { type: 'file', accept: '.jar,application/java-archive', hidden: true,
    dataset: { test: 'plugin-replace-file' },
    onchange: async () => {
      const file = replaceInput.files[0];
      replaceInput.value = '';
      if (file) await installJar(p.id, file, p, reload);
    } });
  const toggle = h('button', { type: 'button', dataset: { test: suspended ? 'plugin-resume' : 'plugin-suspend' } },
    suspended ? 'Resume' : 'Suspend');
  toggle.onclick = busy(toggle, async () => {
    if (!suspended && !await confirmDialog({ title: `Suspend ${p.id}?`, confirm: 'Suspend',
      text: `Its filters (${p.filters.map((f) => f.name).join(', ')}) are refused (409) until resumed: viewers `
        + 'lose them from their menus and renderings that use them fail.' })) return;
    const updated = await api(`/filters/${encodeURIComponent(p.id)}/${suspended ? 'resume' : 'suspend'}`, { method: 'POST' });
    notify(`${p.id}: ${stateOf(updated)}.`, 'ok');
    await reload();
  });
  const remove = h('button', { type: 'button', class: 'danger', dataset: { test: 'plugin-remove' } }, 'Remove');
  remove.onclick = busy(remove, async () => {
    if (!await confirmDialog({ title: `Remove ${p.id} ${p.version}?`, danger: true, confirm: 'Remove the plugin',
      text: `The JAR is deleted from the repository and its filters (${p.filters.map((f) => f.name).join(', ')}) `
        + 'disappear at once on every node. Images stored are not affected. To bring it back, install the JAR again.' })) return;
    await api(`/filters/${encodeURIComponent(p.id)}.jar`, { method: 'DELETE' });
    notify(`${p.id} removed.`, 'ok');
    await reload();
  });
  return h('article', { class: `plugin state-${state.replace(' ', '-')}`, dataset: { test: 'plugin', plugin: p.id, state } },
    h('header', {},
      h('h3', {}, p.id, ' ', h('span', { class: 'version' }, p.version)),
      h('span', { class: 'badge', dataset: { test: 'plugin-state' } }, state),
      h('span', { class: 'spacer' }),
      toggle,
      h('button', { type: 'button', dataset: { test: 'plugin-replace' }, onclick: () => replaceInput.click(),
        title: 'Upload a new JAR for this plugin; if it does not load, the running version stays' }, 'Replace…'),
      h('a', { class: 'button', href: p.download, download: `${p.id}.jar` }, 'Download'),
      remove, replaceInput),
    p.failure && h('p', { class: 'problem', dataset: { test: 'plugin-failure' } }, p.failure),
    h('p', { class: 'sha' }, 'SHA-256 ', h('code', { dataset: { test: 'plugin-sha' } }, p.sha256 ?? '—')),
    h('table', { class: 'grid filters' },
      h('thead', {}, h('tr', {}, ['Filter', 'Name', 'State', 'Parameters', 'Description'].map((t) => h('th', {}, t)))),
      h('tbody', {}, (p.filters ?? []).map((f) => h('tr', { dataset: { test: 'plugin-filter', state: f.state } },
        h('td', {}, h('code', {}, f.id)),
        h('td', {}, f.name),
        h('td', {}, f.state.toLowerCase(),
          f.reason && f.reason.toLowerCase() !== f.state.toLowerCase() ? h('div', { class: 'muted' }, f.reason) : ''),
        h('td', {}, (f.params ?? []).map((x) => h('div', { title: x.description ?? '' },
          h('code', {}, x.name), ` = ${x.defaultValue}`, x.rule ? h('span', { class: 'muted' }, ` (${x.rule})`) : ''))),
        h('td', { class: 'muted' }, f.description ?? ''))))));
}

/** PUT the JAR; after a confirmation when it replaces a plugin. */
async function installJar(id, file, existing, reload, onRefusal = (e) => showError(e, `${file.name} as ${id}`)) {
  if (existing && !await confirmDialog({ title: `Replace ${id} ${existing.version}?`, confirm: 'Replace',
    text: `${file.name} (${formatBytes(file.size)}) replaces the running version on every node at once. If it does `
      + 'not load, the store refuses it and the running version stays.' })) return false;
  try {
    const p = await api(`/filters/${encodeURIComponent(id)}.jar`, { method: 'PUT', body: file,
      headers: { 'Content-Type': 'application/java-archive' } });
    notify(`${id} ${p?.version ?? ''} ${existing ? 'replaced' : 'installed'}: ${(p?.filters ?? []).map((f) => f.name).join(', ')}.`, 'ok');
    await reload();
    return true;
  } catch (e) {
    onRefusal(e);
    return false;
  }
}

function installForm(reload) {
  // No id to type: the store installs the JAR under the Plugin-Id its manifest carries (POST /filters).
  const file = h('input', { type: 'file', required: true, accept: '.jar,application/java-archive',
    dataset: { test: 'install-file' } });
  const problem = h('p', { class: 'problem', dataset: { test: 'install-problem' } });
  const form = h('form', { class: 'install', onsubmit: async (e) => {
    e.preventDefault();
    problem.textContent = '';
    const jar = file.files[0];
    if (!jar) return;
    try {
      const p = await api('/filters', { method: 'POST', body: jar, headers: { 'Content-Type': 'application/java-archive' } });
      notify(`${p.id} ${p.version ?? ''} ${form.known?.has(p.id) ? 'replaced' : 'installed'}: `
        + `${(p.filters ?? []).map((f) => f.name).join(', ')}.`, 'ok');
      form.reset();
      await reload();
    } catch (err) {
      problem.textContent = `${jar.name} was not installed. ${err.message}`;
    }
  } },
  h('h3', {}, 'Install or replace a plugin'),
  h('div', { class: 'row' }, file,
    h('button', { type: 'submit', class: 'primary', dataset: { test: 'install-submit' } }, 'Upload JAR')),
  h('small', { class: 'muted' }, 'The plugin\'s id is the Plugin-Id of the JAR\'s manifest; a JAR of a plugin '
    + 'installed already replaces it. The store loads the JAR before it takes it: a JAR that does not load, or offers '
    + 'no filter, is refused with the reason and nothing changes.'),
  problem);
  return form;
}
