// Helpers shared by the viewer's browser tests (10–39): opening the viewer on a fixture, reading its overlays and
// state, mouse gestures. Not a test file itself (no .test.mjs).
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { base, fixtures } from './harness.mjs';

/** An instance of the mixed study by sample file name, e.g. 'CT_small.dcm'. */
export function sample(name) {
  const i = fixtures.mixed.instances.find((x) => x.sample === name);
  if (!i) throw new Error(`fixtures.mixed has no ${name}`);
  return i;
}

/** Where tests may create and delete files in the store (never the seeded studies). */
export const scratch = fixtures.scratch ?? 'e2e/scratch';

/** Opens the viewer and waits until the first image is on show. */
export async function openView(page, params) {
  await page.goto(`${base}/viewer/#/view?${new URLSearchParams(params)}`);
  await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
  await waitLit(page);
}

/** The CT of the mixed study, the US (30 frames), … as viewer parameters. */
export function seriesOf(name) {
  return { study: fixtures.mixed.studyUid, series: sample(name).seriesUid };
}

export const overlay = (page, test) => page.locator(`[data-test=${test}]`).first().textContent();

/** Waits until the viewport canvas shows something (not all black). */
export async function waitLit(page, timeout = 30_000) {
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-test=viewport] canvas');
    if (!c || !c.width) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 0; i < d.length; i += 16) if (d[i] | d[i + 1] | d[i + 2]) return true;
    return false;
  }, null, { timeout, polling: 200 });
}

/** Left-button drag across the viewport from (fx, fy) to (tx, ty), fractions of its size. */
export async function drag(page, [fx, fy], [tx, ty], steps = 12) {
  const box = await page.locator('[data-test=viewport]').boundingBox();
  await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(box.x + box.width * (fx + (tx - fx) * i / steps), box.y + box.height * (fy + (ty - fy) * i / steps));
  }
  await page.mouse.up();
}

/** The stack position shown in the overlay, e.g. { index: 3, count: 100 }. */
export async function position(page) {
  const m = /\((\d+) \/ (\d+)\)/.exec(await overlay(page, 'overlay-position'));
  return m ? { index: Number(m[1]), count: Number(m[2]) } : null;
}

/** Waits until the overlay shows stack position `index` (1-based). */
export async function waitPosition(page, index, timeout = 20_000) {
  await page.waitForFunction((i) => new RegExp(`\\(${i} / \\d+\\)`).test(document.querySelector('[data-test=overlay-position]')?.textContent ?? ''),
    index, { timeout });
}

/** A PNG of width × height RGB: noise (stored, incompressible) or a gradient. */
export function png(width, height, noise) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    if (noise) randomBytes(width * 3).copy(raw, row + 1);
    else for (let x = 0; x < width * 3; x++) raw[row + 1 + x] = (x + y) & 255;
  }
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: noise ? 0 : 6 })), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xEDB88320 & -(c & 1));
  }
  return ~c >>> 0;
}
