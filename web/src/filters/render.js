// Filtering on the server: the rendered endpoint of the stored image with the current frame and window, the chain
// in order and the region, and how long it took (the store's Server-Timing when it sends one, else the measured
// round trip: request sent → last byte in; decoding the PNG or parsing the DICOM in the browser is counted apart).
// Grey sources come back as their filtered stored values (render=dicom), windowed in the viewer; colour as a PNG.
import { api } from '../api.js';
import { encodePath } from '../viewer/series.js';
import { parseStoredValues } from './stored-values.js';

/** A chain step as the store writes it: "id:k=v,k=v" (every parameter named, so the request says it all). */
export function stepText(step) {
  const params = Object.entries(step.params ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  return params ? `${step.id}:${params}` : step.id;
}

/**
 * source: { path, frame (from 0), window: {center, width} | null (colour: none) }; chain: [{id, params}];
 * region: {x, y, w, h} | null (whole image); format: png, or dicom for the filtered stored values of a grey source
 * (the window is then only the object's default).
 */
export function renderUrl(source, chain, region, format = 'png') {
  const q = new URLSearchParams({ render: format });
  if (source.frame) q.set('frame', String(source.frame));
  if (source.window) q.set('window', windowText(source.window));
  chain.forEach((s) => q.append('filter', stepText(s)));
  if (region) q.set('region', regionText(region));
  return `/images/${encodePath(source.path)}?${q}`;
}

export const windowText = (w) => `${round(w.center)},${round(Math.max(1, w.width))}`;
/** The window as the store reads windowText: the numbers a rendering for this window is made with. */
export const windowOfText = (text) => {
  const [center, width] = text.split(',').map(Number);
  return { center, width };
};
export const regionText = (r) => `${r.x},${r.y},${r.w},${r.h}`;
const round = (x) => Math.round(x * 100) / 100;

/**
 * GET the rendered image: { bitmap, width, height, url, roundTripMs, decodeMs, serverMs (null without
 * Server-Timing), serverTiming (the header), bytes }.
 */
export async function renderImage(url, { signal } = {}) {
  const t0 = performance.now();
  const response = await api(url, { raw: true, signal, headers: { Accept: 'image/png' } });
  const blob = await response.blob();
  const t1 = performance.now();
  const bitmap = await createImageBitmap(blob);
  const t2 = performance.now();
  const serverTiming = response.headers.get('Server-Timing');
  return { bitmap, width: bitmap.width, height: bitmap.height, url, bytes: blob.size,
    roundTripMs: t1 - t0, decodeMs: t2 - t1, serverTiming, serverMs: serverMilliseconds(serverTiming) };
}

/**
 * GET the filtered stored values (a render=dicom URL): { stored (parseStoredValues), width, height, url,
 * roundTripMs, decodeMs (parsing the DICOM), serverMs, serverTiming, bytes }.
 */
export async function fetchStoredValues(url, { signal } = {}) {
  const t0 = performance.now();
  const response = await api(url, { raw: true, signal, headers: { Accept: 'application/dicom' } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const t1 = performance.now();
  const stored = parseStoredValues(bytes);
  const t2 = performance.now();
  const serverTiming = response.headers.get('Server-Timing');
  return { stored, width: stored.width, height: stored.height, url, bytes: bytes.length,
    roundTripMs: t1 - t0, decodeMs: t2 - t1, serverTiming, serverMs: serverMilliseconds(serverTiming) };
}

/** A Server-Timing header ("decode;dur=1.3, filter;dur=2.2") as [{ name, ms }]. */
export function serverTimings(header) {
  return (header ?? '').split(',').map((part) => {
    const [name, ...attrs] = part.trim().split(';');
    const dur = attrs.map((a) => /^\s*dur=([\d.]+)/.exec(a)).find(Boolean);
    return dur ? { name: name.trim(), ms: Number(dur[1]) } : null;
  }).filter(Boolean);
}

/** The total of a Server-Timing header's durations, or null. */
export function serverMilliseconds(header) {
  const t = serverTimings(header);
  return t.length ? t.reduce((a, b) => a + b.ms, 0) : null;
}
