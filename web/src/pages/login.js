// The login page: the store's accounts (reader, uploader, admin), and single sign-on through the site's OpenID
// provider when the store offers it; back to where the user was (next=) afterwards.
import { h, showError } from '../ui.js';
import { api } from '../api.js';
import { login } from '../session.js';
import { navigate } from '../router.js';

/** A page of the store itself (e.g. /images/…/) the store sent a browser here from: /viewer/?next=<path>. */
function serverNext() {
  const next = new URLSearchParams(location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : null;
}

export function renderLogin(main, params) {
  const next = params.next && params.next.startsWith('/') && !params.next.startsWith('/login') ? params.next : '/studies';
  const userField = h('input', { name: 'username', autocomplete: 'username', required: true, dataset: { test: 'login-user' } });
  const passwordField = h('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true,
    dataset: { test: 'login-password' } });
  const problem = h('p', { class: 'problem', dataset: { test: 'login-problem' }, role: 'alert' },
    params.expired ? 'Your session ended. Log in again to go on where you were.' : '');
  const form = h('form', { class: 'login', onsubmit: async (e) => {
    e.preventDefault();
    problem.textContent = '';
    try {
      await login(userField.value, passwordField.value);
      const back = serverNext() ?? (next.startsWith('/ohif/') ? next : null); // pages outside this app
      if (back) location.replace(back);
      else location.hash = '#' + next;
    } catch (err) {
      if (err.status === 401) problem.textContent = 'Wrong user name or password.';
      else showError(err, 'Login');
    }
  } },
  h('h1', {}, 'MedJava image store'),
  h('label', {}, 'User name', userField),
  h('label', {}, 'Password', passwordField),
  problem,
  h('button', { type: 'submit', dataset: { test: 'login-submit' } }, 'Log in'));
  main.append(form);
  userField.focus();
  offerSingleSignOn(form, serverNext() ?? `${location.pathname}#${next}`);
}

/** A button to the provider's login when the store has one; it comes back to `back` with a session cookie. */
async function offerSingleSignOn(form, back) {
  let sso;
  try {
    sso = await api('/auth/oidc', { quiet401: true });
  } catch {
    return; // an older store, or none configured: the password form alone
  }
  if (!sso?.enabled) return;
  form.append(h('p', { class: 'or' }, 'or'),
    h('a', { class: 'button sso', href: `/auth/oidc/login?next=${encodeURIComponent(back)}`,
      dataset: { test: 'login-sso' } }, sso.name || 'Single sign-on'));
}
