// Hash routes (#/studies, #/view?study=…, #/admin/plugins): the page works from one static index.html, and a
// route is a bookmarkable place a user returns to after logging in again.

const routes = [];
let onNotFound = () => {};

/** route('/view', render, {role: 'reader'}); render(container, params, path) may return a cleanup function. */
export function route(prefix, render, options = {}) {
  routes.push({ prefix, render, ...options });
}

export function notFound(f) {
  onNotFound = f;
}

/** The current route: path (e.g. '/browse/samples/dicom') and query parameters. */
export function current() {
  const hash = location.hash.slice(1) || '/studies';
  const q = hash.indexOf('?');
  const path = q < 0 ? hash : hash.slice(0, q);
  const params = Object.fromEntries(new URLSearchParams(q < 0 ? '' : hash.slice(q + 1)));
  return { path, params };
}

export function navigate(path, params = {}) {
  const q = new URLSearchParams(params).toString();
  location.hash = `#${path}${q ? `?${q}` : ''}`;
}

/** The route matching `path`: the longest prefix that is the whole path or followed by '/'. */
export function match(path) {
  return routes.filter((r) => path === r.prefix || path.startsWith(r.prefix + '/'))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
}

export function fallback(path) {
  onNotFound(path);
}
