// The frame around every page: the bar with the store's sections (by role), the user and logout, and the page area.
import { h, showError } from './ui.js';
import { user, can, logout, onChange } from './session.js';

export function shell() {
  const userBox = h('span', { class: 'user' });
  const nav = h('nav', { class: 'sections' });
  const bar = h('header', { class: 'bar' },
    h('a', { class: 'brand', href: '#/studies' }, 'MedJava'), nav, h('span', { class: 'spacer' }), userBox);
  const main = h('main', { class: 'page', dataset: { test: 'page' } });

  function draw() {
    const u = user();
    if (u?.sharedStudy) { // a share link's session: this one study, read only, nothing else to go to
      nav.replaceChildren(h('span', { class: 'shared-banner', dataset: { test: 'shared-banner' } },
        `Shared study · read only · until ${new Date(u.expires).toLocaleString()}`));
      userBox.replaceChildren(h('button', { dataset: { test: 'logout' }, onclick: () => logout().catch((e) => showError(e, 'Close')) }, 'Close'));
      return;
    }
    // Access by project keeps the caller to its projects' studies: the file tree and the trash are administrators' then.
    const byProject = Array.isArray(u?.projects);
    nav.replaceChildren(...(!u ? [] : [
      h('a', { href: '#/studies', dataset: { test: 'nav-studies' } }, 'Studies'),
      !byProject && h('a', { href: '#/browse/', dataset: { test: 'nav-browse' } }, 'Files'),
      can('uploader') && h('a', { href: '#/upload', dataset: { test: 'nav-upload' } }, 'Upload'),
      can('admin') && h('a', { href: '#/admin', dataset: { test: 'nav-admin' } }, 'Administration'),
      can('uploader') && !can('admin') && !byProject && h('a', { href: '#/admin/trash', dataset: { test: 'nav-trash' } }, 'Trash'),
      h('a', { href: '/ohif/', target: '_blank', rel: 'noopener', dataset: { test: 'nav-ohif' },
        title: 'The OHIF viewer on the same studies' }, 'OHIF viewer ↗'),
    ].filter(Boolean))); // replaceChildren would write out a `false`
    userBox.replaceChildren(...(!u ? [] : [
      h('span', { dataset: { test: 'session-user' }, title: `role: ${u.role}${byProject ? `, projects: ${u.projects.join(', ') || 'none'}` : ''}` },
        `${u.user} (${u.role})`),
      h('button', { dataset: { test: 'logout' }, onclick: () => logout().catch((e) => showError(e, 'Logout')) }, 'Log out'),
    ]));
  }
  onChange(draw);
  draw();
  return { element: h('div', { class: 'shell' }, bar, main), main };
}

export function highlight(path) {
  document.querySelectorAll('nav.sections a').forEach((a) => {
    a.classList.toggle('active', path.startsWith(a.getAttribute('href').slice(1).replace(/\/$/, '')));
  });
}
