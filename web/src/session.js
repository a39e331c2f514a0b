// The browser session: login and logout against the store's /auth endpoints (an HttpOnly cookie; no credentials
// kept in the page or put in URLs), the current user and role, and the way back after a session expired.
import { api, setUnauthorizedHandler } from './api.js';

const RANK = { reader: 1, uploader: 2, admin: 3 };
let current = null;
const listeners = new Set();

export function user() {
  return current;
}

/** Whether the current user has at least `role` (reader ⊂ uploader ⊂ admin). */
export function can(role) {
  return !!current && (RANK[current.role] ?? 0) >= RANK[role];
}

export function onChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

function set(u) {
  current = u;
  listeners.forEach((f) => f(current));
}

/** Asks the store who we are; null when not logged in. */
export async function refresh() {
  try {
    set(await api('/auth/me', { quiet401: true }));
  } catch (e) {
    if (e.status !== 401) throw e;
    set(null);
  }
  return current;
}

export async function login(username, password) {
  set(await api('/auth/login', { method: 'POST', json: { username, password }, quiet401: true }));
  return current;
}

export async function logout() {
  let atProvider = null;
  try {
    atProvider = (await api('/auth/logout', { method: 'POST', quiet401: true }))?.providerLogout ?? null;
  } finally {
    set(null);
    if (atProvider) location.assign(atProvider); // a single sign-on ends at the OpenID provider too
    else location.hash = '#/login';
  }
}

/** A 401 anywhere: the session ended. Go to the login page and come back to the same place afterwards. */
setUnauthorizedHandler(() => {
  if (!location.hash.startsWith('#/login')) {
    const next = location.hash.slice(1) || '/studies';
    set(null);
    location.hash = `#/login?next=${encodeURIComponent(next)}&expired=1`;
  }
});
