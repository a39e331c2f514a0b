// The store's filter catalogue (GET /filters), followed while the viewer is open: polled every few seconds with
// If-None-Match, so an unchanged catalogue costs a 304; filters of suspended, failed or removed plugins leave the
// list on the next poll.
import { api } from '../api.js';

/** Active filters of active plugins, flattened: [{ id, name, description, params, plugin, version }]. */
export function activeFilters(manifest) {
  const out = [];
  for (const plugin of manifest?.plugins ?? []) {
    if (plugin.state !== 'ACTIVE') continue;
    for (const f of plugin.filters ?? []) {
      if (f.state && f.state !== 'ACTIVE') continue;
      out.push({ id: f.id, name: f.name ?? f.id, description: f.description ?? '', params: f.params ?? [],
        plugin: plugin.id, version: plugin.version, parallelizable: f.parallelizable });
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Calls onChange(filters) at once and whenever the catalogue changes; onError(e) when a poll fails (the list is kept).
 * Returns { stop, refresh }.
 */
export function watchCatalogue(onChange, { interval = 3000, onError = () => {} } = {}) {
  let etag = null;
  let timer = null;
  let stopped = false;
  let failing = false;

  async function poll() {
    if (stopped) return;
    try {
      const r = await api('/filters', { raw: true, headers: etag ? { 'If-None-Match': etag } : {} });
      if (r.status !== 304) {
        etag = r.headers.get('ETag');
        onChange(activeFilters(await r.json()));
      }
      failing = false;
    } catch (e) {
      if (!failing) onError(e); // once per outage, not every few seconds
      failing = true;
    } finally {
      if (!stopped) timer = setTimeout(poll, document.hidden ? interval * 4 : interval);
    }
  }
  poll();
  return {
    stop() { stopped = true; clearTimeout(timer); },
    refresh() { clearTimeout(timer); etag = null; poll(); },
  };
}
