// The administrator's console (admin role): tabs for users and roles, filter plugins, remote PACS, the index and
// jobs, and health and metrics — one module each in src/admin/. The tab is part of the route (#/admin/plugins), so
// it can be bookmarked and survives a new login.
import '../admin/admin.css';
import { h } from '../ui.js';
import { renderUsers } from '../admin/users.js';
import { renderPlugins } from '../admin/plugins.js';
import { renderPacs } from '../admin/pacs.js';
import { renderIndex } from '../admin/indexing.js';
import { renderHealth } from '../admin/health.js';

const TABS = [
  ['users', 'Users and roles', renderUsers],
  ['plugins', 'Filter plugins', renderPlugins],
  ['pacs', 'Remote PACS', renderPacs],
  ['index', 'Index and jobs', renderIndex],
  ['health', 'Health and metrics', renderHealth],
];

export async function renderAdmin(main, params, path) {
  const name = path.split('/')[2] || 'users';
  const tab = TABS.find(([id]) => id === name);
  const nav = h('nav', { class: 'tabs', role: 'tablist' }, TABS.map(([id, label]) =>
    h('a', { href: `#/admin/${id}`, role: 'tab', class: id === name ? 'on' : '', 'aria-selected': String(id === name),
      dataset: { test: `admin-tab-${id}` } }, label)));
  const box = h('section', { class: 'admin-tab', dataset: { test: `admin-${name}` } });
  main.append(h('div', { class: 'admin-page' }, nav, box));
  if (!tab) {
    box.append(h('p', { class: 'empty' }, `No tab "${name}".`));
    return undefined;
  }
  return tab[2](box, params);
}
