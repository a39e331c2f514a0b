// The administrator's console: tabs for users and roles, filter plugins, remote PACS, the index and jobs, health and
// metrics, the trash, the retention rules, the routing rules and their queue, the change feed and the audit trail —
// one module each in src/admin/. The tab is part of the route (#/admin/plugins), so it can be bookmarked and survives
// a new login. Uploaders may restore deletions: they see the console with its Trash tab only.
import '../admin/admin.css';
import { h } from '../ui.js';
import { can } from '../session.js';
import { renderUsers } from '../admin/users.js';
import { renderPlugins } from '../admin/plugins.js';
import { renderPacs } from '../admin/pacs.js';
import { renderIndex } from '../admin/indexing.js';
import { renderHealth } from '../admin/health.js';
import { renderTrash } from '../admin/trash.js';
import { renderRetention } from '../admin/retention.js';
import { renderRoutes } from '../admin/routes.js';
import { renderChanges } from '../admin/changes.js';
import { renderAudit } from '../admin/audit.js';

const TABS = [
  ['users', 'Users and roles', renderUsers, 'admin'],
  ['plugins', 'Filter plugins', renderPlugins, 'admin'],
  ['pacs', 'Remote PACS', renderPacs, 'admin'],
  ['index', 'Index and jobs', renderIndex, 'admin'],
  ['health', 'Health and metrics', renderHealth, 'admin'],
  ['trash', 'Trash', renderTrash, 'uploader'],
  ['retention', 'Retention', renderRetention, 'admin'],
  ['routes', 'Routes', renderRoutes, 'admin'],
  ['changes', 'Changes', renderChanges, 'admin'],
  ['audit', 'Audit', renderAudit, 'admin'],
];

/** The tabs other roles than admin may open (main.js gives them their routes). */
export const OPEN_TABS = TABS.filter(([, , , role]) => role !== 'admin').map(([id, , , role]) => [id, role]);

export async function renderAdmin(main, params, path) {
  const name = path.split('/')[2] || 'users';
  const tabs = TABS.filter(([, , , role]) => can(role));
  const tab = tabs.find(([id]) => id === name);
  const nav = h('nav', { class: 'tabs', role: 'tablist' }, tabs.map(([id, label]) =>
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
