// MedJava's browser application: the radiologist's viewer (studies, series, viewport, the store's filters), upload
// and the administrator's console, on the store's own HTTP API. Boot: who is logged in, then the hash route.
import './app.css';
import { h, showError } from './ui.js';
import { refresh, user, can } from './session.js';
import { route, match, current, navigate } from './router.js';
import { shell, highlight } from './shell.js';
import { renderLogin } from './pages/login.js';
import { renderStudies } from './pages/studies.js';
import { renderBrowse } from './pages/browse.js';
import { renderViewer } from './pages/viewer.js';
import { renderUpload } from './pages/upload.js';
import { renderAdmin, OPEN_TABS } from './pages/admin.js';

route('/login', renderLogin, { open: true });
route('/studies', renderStudies, { role: 'reader' });
route('/browse', renderBrowse, { role: 'reader' });
route('/view', renderViewer, { role: 'reader' });
route('/upload', renderUpload, { role: 'uploader' });
route('/admin', renderAdmin, { role: 'admin' });
for (const [tab, role] of OPEN_TABS) route(`/admin/${tab}`, renderAdmin, { role });

const { element, main } = shell();
document.getElementById('app').replaceWith(element);
let cleanup = null;

async function show() {
  const { path, params } = current();
  const r = match(path);
  if (typeof cleanup === 'function') {
    try { cleanup(); } catch (e) { console.error(e); }
  }
  cleanup = null;
  if (!r) {
    main.replaceChildren(h('p', { class: 'empty' }, `Nothing here: ${path}. `, h('a', { href: '#/studies' }, 'Studies')));
    return;
  }
  if (!r.open && !user()) {
    navigate('/login', { next: location.hash.slice(1) });
    return;
  }
  const shared = user()?.sharedStudy;
  if (shared && !(path === '/view' && params.study === shared)) { // a share link opens its study and nothing else
    navigate('/view', { study: shared });
    return;
  }
  if (r.role && !can(r.role)) {
    main.replaceChildren(h('p', { class: 'empty', dataset: { test: 'forbidden' } },
      `Your account (${user().role}) may not open this page; it needs the ${r.role} role.`));
    return;
  }
  highlight(path);
  main.replaceChildren();
  try {
    cleanup = await r.render(main, params, path);
  } catch (e) {
    showError(e);
    main.append(h('p', { class: 'empty' }, `This page could not be shown: ${e.message}`));
  }
}

window.addEventListener('hashchange', () => show());
window.addEventListener('unhandledrejection', (e) => showError(e.reason));
refresh().then(show).catch((e) => {
  showError(e, 'The store');
  show();
});
