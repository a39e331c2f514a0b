// Health and metrics at a glance: the store's MicroProfile health checks (/health, /health/ready, /health/live) and
// the key numbers of /metrics (Prometheus text): uploads, JVM heap, CPU, threads, uptime, GC, connection pool —
// refreshed every 5 s while the tab is open, with the heap's recent course.
import { api } from '../api.js';
import { h, formatBytes } from '../ui.js';
import { formatDuration } from './format.js';

const HISTORY = 60;

/** Prometheus text → Map name → [{ labels, value }]. */
export function parseMetrics(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    const key = `${m[1]}{${m[3] ?? ''}}`;
    const list = out.get(m[1]) ?? [];
    // Payara repeats some series; the first of each name and labels counts.
    if (!list.some((x) => x.key === key)) list.push({ key, labels, value: Number(m[4]) });
    out.set(m[1], list);
  }
  return out;
}

function one(metrics, name) {
  return metrics.get(name)?.[0]?.value;
}

export async function renderHealth(box) {
  const checks = h('div', { dataset: { test: 'health' } });
  const numbers = h('div', { class: 'tiles', dataset: { test: 'metrics' } });
  const updated = h('p', { class: 'muted' });
  const heapHistory = [];
  let timer = null;
  let stopped = false;

  async function refresh() {
    const [health, ready, live, metricsText] = await Promise.all([
      probe('/health'), probe('/health/ready'), probe('/health/live'),
      api('/metrics', { headers: { Accept: 'text/plain' } }).catch((e) => e)]);
    checks.replaceChildren(healthView(health, ready, live));
    if (metricsText instanceof Error) {
      numbers.replaceChildren(h('p', { class: 'problem' }, `Metrics: ${metricsText.message}`));
    } else {
      const m = parseMetrics(metricsText);
      heapHistory.push(one(m, 'memory_usedHeap_bytes'));
      if (heapHistory.length > HISTORY) heapHistory.shift();
      numbers.replaceChildren(...tiles(m, heapHistory));
    }
    updated.textContent = `Updated ${new Date().toLocaleTimeString()}, every 5 s while this tab is open.`;
    if (!stopped) timer = setTimeout(refresh, 5000);
  }

  box.append(h('h2', {}, 'Health and metrics'), checks, h('h3', {}, 'At a glance'), numbers, updated,
    h('p', { class: 'muted' }, 'Everything: ', h('a', { href: '/health', target: '_blank' }, '/health'), ' · ',
      h('a', { href: '/metrics', target: '_blank' }, '/metrics'), ' · ', h('a', { href: '/openapi', target: '_blank' }, '/openapi')));
  await refresh();
  return () => { stopped = true; clearTimeout(timer); };
}

/** A health endpoint's JSON whatever its status (503 carries the checks too). */
async function probe(path) {
  try {
    const r = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const body = await r.json().catch(() => null);
    return { http: r.status, body };
  } catch (e) {
    return { http: 0, error: e.message };
  }
}

function healthView(health, ready, live) {
  const status = (p) => p.body?.status ?? (p.http ? `HTTP ${p.http}` : 'no answer');
  const badge = (s, test) => h('span', { class: `badge health-${String(s).toLowerCase()}`, dataset: { test } }, s);
  return h('div', {},
    h('p', { class: 'health-line' }, 'Overall ', badge(status(health), 'health-status'), '  Ready ', badge(status(ready), 'health-ready'),
      '  Live ', badge(status(live), 'health-live')),
    h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Check', 'Status', 'Details'].map((t) => h('th', {}, t)))),
      h('tbody', {}, (health.body?.checks ?? []).map((c) => h('tr', { dataset: { test: 'health-check' } },
        h('td', {}, c.name), h('td', {}, badge(c.status)),
        h('td', {}, Object.entries(c.data ?? {}).map(([k, v]) => h('div', {}, h('span', { class: 'muted' }, `${k}: `), String(v)))))))));
}

function tile(label, value, detail, test) {
  return h('div', { class: 'tile', dataset: { test: test ?? 'tile' } }, h('div', { class: 'label' }, label),
    h('div', { class: 'value' }, value ?? '—'), detail && h('div', { class: 'detail' }, detail));
}

function tiles(m, heapHistory) {
  const used = one(m, 'memory_usedHeap_bytes');
  const max = one(m, 'memory_maxHeap_bytes');
  const committed = one(m, 'memory_committedHeap_bytes');
  const uploads = one(m, 'uploads_total');
  const gcCount = (m.get('gc_total') ?? []).reduce((n, x) => n + x.value, 0);
  const gcTime = (m.get('gc_time_seconds_total') ?? []).reduce((n, x) => n + x.value, 0);
  const cpu = one(m, 'system_cpu_load') ?? one(m, 'cpu_processCpuLoad');
  const uptime = one(m, 'jvm_uptime_seconds');
  const pool = one(m, 'connection_pool_H2Pool_usedConnection_total');
  return [
    tile('Uploads (PUT /images)', uploads !== undefined ? String(uploads) : '0',
      'since the store started; STOW-RS and C-STORE not counted here', 'metric-uploads'),
    tile('JVM heap', used !== undefined ? `${formatBytes(used)} of ${formatBytes(max ?? committed)}` : undefined,
      h('div', {}, h('progress', { max: max ?? committed ?? 1, value: used ?? 0 }), sparkline(heapHistory, max),
        `committed ${formatBytes(committed ?? 0)}`), 'metric-heap'),
    tile('CPU (the machine)', cpu !== undefined ? `${Math.round(cpu * 100)} %` : undefined,
      `${one(m, 'cpu_availableProcessors') ?? '?'} processors, load average ${one(m, 'cpu_systemLoadAverage')?.toFixed(2) ?? '?'}`),
    tile('Threads', String(one(m, 'thread_count') ?? '—'), `peak ${one(m, 'thread_max_count') ?? '?'}, daemon ${one(m, 'thread_daemon_count') ?? '?'}`),
    tile('Uptime', uptime !== undefined ? formatDuration(uptime * 1000) : undefined),
    tile('Garbage collection', `${gcCount} runs`, `${gcTime.toFixed(2)} s in total`),
    pool !== undefined && tile('Index database pool', `${pool} in use`,
      `${one(m, 'connection_pool_H2Pool_freeConnection_total') ?? '?'} free`),
    tile('Requests, disk space', 'not published',
      'the store publishes no request counters or free-space metric; the health check says whether the image '
        + 'storage is writable', 'metric-missing'),
  ].filter(Boolean);
}

/** The heap's last minutes as a small line. */
function sparkline(values, max) {
  const v = values.filter((x) => x !== undefined);
  if (v.length < 2) return '';
  const top = max || Math.max(...v);
  const points = v.map((x, i) => `${(i / (HISTORY - 1)) * 120},${24 - (x / top) * 24}`).join(' ');
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 120 24');
  svg.setAttribute('class', 'sparkline');
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', points);
  svg.append(line);
  return svg;
}
