// The login page: the store's accounts (reader, uploader, admin); back to where the user was (next=) afterwards.
import { h, showError } from '../ui.js';
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
}
