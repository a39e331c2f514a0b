// Users and roles (/admin/users): list, create, change role, projects or password, delete. The store keeps each
// account as a role, projects and a salted password hash and replaces it whole (PUT with password and role), so
// changing a role or projects means setting a password too. Projects (access by project: the studies labelled like
// one of them) are label names. Names, password and project rules are the store's (checked here too, to say so
// before sending).
import { api } from '../api.js';
import { h, notify, showError } from '../ui.js';
import { user } from '../session.js';
import { confirmDialog } from './dialog.js';

const ROLES = [
  ['reader', 'reader — views and downloads'],
  ['uploader', 'uploader — also uploads, retrieves from and sends to PACS'],
  ['admin', 'admin — also accounts, plugins, index'],
];
const NAME = '[A-Za-z0-9._\\-]{1,64}';
// project names separated by commas or spaces; none is fine
const PROJECTS = '[\\s,]*([A-Za-z0-9_\\-]{1,64}([\\s,]+[A-Za-z0-9_\\-]{1,64})*)?[\\s,]*';

export async function renderUsers(box) {
  const list = h('div');
  const form = newUserForm(reload);
  box.append(h('h2', {}, 'Users and roles'), list, form);

  async function reload() {
    let accounts;
    try {
      accounts = await api('/admin/users?details=true');
    } catch (e) {
      list.replaceChildren(h('p', { class: 'problem' }, e.message));
      return;
    }
    form.known = new Set(Object.keys(accounts));
    list.replaceChildren(h('table', { class: 'grid users', dataset: { test: 'users-table' } },
      h('thead', {}, h('tr', {}, h('th', {}, 'User'), h('th', {}, 'Role'), h('th', {}, 'Projects'), h('th', {}, ''))),
      h('tbody', {}, Object.entries(accounts).map(([name, account]) => userRow(name, account, reload)))));
  }
  await reload();
}

function roleSelect(value) {
  return h('select', { name: 'role', dataset: { test: 'user-role' } },
    ROLES.map(([r, label]) => h('option', { value: r, selected: r === value }, label)));
}

function projectsField(projects) {
  return h('input', { name: 'projects', pattern: PROJECTS, value: projects.join(', '), autocomplete: 'off',
    placeholder: 'projects (e.g. cardiology, neuro)', dataset: { test: 'user-projects' },
    title: 'Project names separated by commas: letters, digits, _ or -, at most 64 each. With access by project, '
      + 'a reader or uploader sees the studies labelled like one of them; an admin sees every study.' });
}

function projectList(field) {
  return field.value.split(/[\s,]+/).filter((p) => p);
}

function passwordFields() {
  const password = h('input', { type: 'password', name: 'password', minlength: 8, required: true,
    autocomplete: 'new-password', placeholder: 'new password (8 or more)', dataset: { test: 'user-password' } });
  const repeat = h('input', { type: 'password', minlength: 8, required: true, autocomplete: 'new-password',
    placeholder: 'repeat it', dataset: { test: 'user-password-repeat' } });
  const check = () => repeat.setCustomValidity(repeat.value === password.value ? '' : 'The two passwords differ.');
  password.oninput = check;
  repeat.oninput = check;
  return { password, repeat };
}

function userRow(name, { role, projects }, reload) {
  const self = name === user()?.user;
  const tr = h('tr', { dataset: { test: 'user-row', user: name } },
    h('td', {}, name, self ? h('span', { class: 'muted' }, ' (you)') : ''),
    h('td', { dataset: { test: 'user-role-cell' } }, role),
    h('td', { dataset: { test: 'user-projects-cell' } }, projects.length ? projects.join(', ')
      : h('span', { class: 'muted' }, 'none')),
    h('td', { class: 'actions' },
      h('button', { type: 'button', dataset: { test: 'user-edit' }, onclick: () => edit() },
        'Change role, projects or password…'),
      h('button', { type: 'button', class: 'danger', dataset: { test: 'user-delete' }, disabled: self,
        title: self ? 'You cannot delete the account you are logged in with' : `Delete ${name}`,
        onclick: () => remove() }, 'Delete')));

  function edit() {
    const select = roleSelect(role);
    const projectsInput = projectsField(projects);
    const { password, repeat } = passwordFields();
    const problem = h('span', { class: 'problem' });
    const form = h('form', { class: 'inline', onsubmit: async (e) => {
      e.preventDefault();
      try {
        await api(`/admin/users/${encodeURIComponent(name)}`, { method: 'PUT',
          json: { password: password.value, role: select.value, projects: projectList(projectsInput) } });
        notify(`${name}: ${select.value}, password set.` + (self && select.value !== 'admin'
          ? ' You gave up the admin role: it takes effect with your next login.' : ''), 'ok');
        reload();
      } catch (err) {
        problem.textContent = err.message;
      }
    } },
    select, projectsInput, password, repeat,
    h('button', { type: 'submit', class: 'primary', dataset: { test: 'user-save' } }, 'Save'),
    h('button', { type: 'button', onclick: () => reload() }, 'Cancel'),
    h('small', { class: 'muted' }, 'The store keeps only a hash of the password, so a change of role or projects '
      + 'sets a new password too; it ends the account\'s sessions.'),
    problem);
    tr.lastChild.replaceChildren(form);
    password.focus();
  }

  async function remove() {
    if (!await confirmDialog({ title: `Delete ${name}?`, danger: true, confirm: 'Delete the account',
      text: `${name} (${role}) can no longer log in; sessions and scripts using this account stop working at once. `
        + 'What they stored stays.' })) return;
    try {
      await api(`/admin/users/${encodeURIComponent(name)}`, { method: 'DELETE' });
      notify(`${name} deleted.`, 'ok');
      reload();
    } catch (e) {
      showError(e, `Delete ${name}`);
    }
  }
  return tr;
}

function newUserForm(reload) {
  const name = h('input', { name: 'name', required: true, pattern: NAME, placeholder: 'user name',
    title: '1 to 64 letters, digits, ".", "_" or "-"', autocomplete: 'off', dataset: { test: 'new-user-name' } });
  const select = roleSelect('reader');
  select.dataset.test = 'new-user-role';
  const projects = projectsField([]);
  projects.dataset.test = 'new-user-projects';
  const { password, repeat } = passwordFields();
  password.dataset.test = 'new-user-password';
  repeat.dataset.test = 'new-user-password-repeat';
  const problem = h('p', { class: 'problem', dataset: { test: 'new-user-problem' } });
  const form = h('form', { class: 'new-user', onsubmit: async (e) => {
    e.preventDefault();
    problem.textContent = '';
    // A PUT to an existing name would silently replace that account.
    if (form.known?.has(name.value)) {
      problem.textContent = `${name.value} exists already; use "Change role, projects or password…" in its row.`;
      return;
    }
    try {
      await api(`/admin/users/${encodeURIComponent(name.value)}`, { method: 'PUT',
        json: { password: password.value, role: select.value, projects: projectList(projects) } });
      notify(`${name.value} created (${select.value}).`, 'ok');
      form.reset();
      reload();
    } catch (err) {
      problem.textContent = err.message;
    }
  } },
  h('h3', {}, 'New user'),
  h('div', { class: 'row' }, name, select, projects, password, repeat,
    h('button', { type: 'submit', class: 'primary', dataset: { test: 'new-user-create' } }, 'Create')),
  problem);
  return form;
}
