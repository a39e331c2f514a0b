// The web viewer's speed against a running store (a measurement, not a test): time to first image of a 512² CT and
// the 1760² CR through both loaders (wadors: frames from WADO-RS after the series metadata; wadouri: the whole Part 10
// file from /images/), frames per second of a window/level drag, and of scrolling the 100-image series (a first pass
// that loads each image, then again from memory). Headless Chromium with SwiftShader's software WebGL, as the tests.
//   node bench/seed.mjs --store URL --url URL --out /tmp/fx.json      (once: the studies)
//   node bench/viewer-bench.mjs /tmp/fx.json [--runs 5] [--render auto|cpu|gpu] [--only ttfi,wl,scroll] [--json out.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values: o, positionals } = parseArgs({ allowPositionals: true,
  options: { runs: { type: 'string', default: '5' }, json: { type: 'string' }, user: { type: 'string', default: 'admin' },
    render: { type: 'string', default: 'auto' }, only: { type: 'string', default: 'ttfi,wl,scroll' } } });
const only = new Set(o.only.split(','));
// auto: the viewer's own choice (CPU drawing when WebGL is a software rasterizer, as here); cpu or gpu force one.
const search = o.render === 'auto' ? '' : `?render=${o.render}`;
const fx = JSON.parse(readFileSync(positionals[0] ?? process.env.MEDJAVA_E2E_FIXTURES, 'utf8'));
const runs = Number(o.runs);
const FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });

/** A fresh context (empty HTTP cache, new Cornerstone), logged in, on the study list. */
async function freshPage() {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${fx.url}/viewer/${search}#/login`);
  await page.fill('[data-test=login-user]', o.user);
  await page.fill('[data-test=login-password]', fx.users[o.user].password);
  await page.click('[data-test=login-submit]');
  await page.locator('[data-test=session-user]').waitFor();
  return page;
}

/** From the route change to the first image on the canvas (ms), measured in the page. */
async function timeToFirstImage(page, params) {
  await page.evaluate((hash) => {
    window.__t0 = performance.now();
    location.hash = hash;
  }, `#/view?${new URLSearchParams(params)}`);
  return page.evaluate(() => new Promise((resolve, reject) => {
    const limit = performance.now() + 60_000;
    (function poll() {
      const c = document.querySelector('[data-test=viewport] canvas');
      const shown = document.querySelector('[data-test=viewer-message]')?.dataset.state;
      if (shown === 'error') return reject(new Error(document.querySelector('[data-test=viewer-message]').textContent));
      if (c?.width && shown === 'shown') {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < d.length; i += 64) if (d[i]) return resolve(performance.now() - window.__t0);
      }
      if (performance.now() > limit) return reject(new Error('no image within 60 s'));
      requestAnimationFrame(poll);
    })();
  }));
}

/** Renders per second while the mouse drags window/level for `ms` (synthetic mouse events, one per animation frame). */
async function windowLevelFps(page, ms = 4000) {
  return page.evaluate((duration) => new Promise((resolve) => {
    const { vp } = window.__medjavaViewer;
    const el = vp.element;
    const r = el.getBoundingClientRect();
    const at = (x, y) => ({ clientX: r.left + x, clientY: r.top + y, pageX: r.left + x, pageY: r.top + y, bubbles: true, buttons: 1, button: 0 });
    let renders = 0;
    const count = () => { renders++; };
    el.addEventListener('CORNERSTONE_IMAGE_RENDERED', count);
    const x0 = r.width / 2, y0 = r.height / 2;
    el.dispatchEvent(new MouseEvent('mousedown', at(x0, y0)));
    const start = performance.now();
    let step = 0;
    (function move() {
      const t = performance.now() - start;
      step++;
      const dx = 120 * Math.sin(step / 10), dy = 60 * Math.cos(step / 13);
      document.dispatchEvent(new MouseEvent('mousemove', at(x0 + dx, y0 + dy)));
      if (t < duration) return requestAnimationFrame(move);
      document.dispatchEvent(new MouseEvent('mouseup', at(x0 + dx, y0 + dy)));
      el.removeEventListener('CORNERSTONE_IMAGE_RENDERED', count);
      resolve({ fps: renders / (t / 1000), moves: step, renders });
    })();
  }), ms);
}

/**
 * Scrolling the series: a first pass that goes to each next image as soon as the previous one is on show (images
 * load as needed, prefetch running), then two passes from memory, the same way.
 */
async function scrollFps(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const { vp } = window.__medjavaViewer;
    const n = vp.frames().length;
    const el = vp.element;
    const shown = (i) => new Promise((res) => {
      if (vp.index() === i) return res();
      const f = () => { if (vp.index() === i) { el.removeEventListener('CORNERSTONE_IMAGE_RENDERED', f); res(); } };
      el.addEventListener('CORNERSTONE_IMAGE_RENDERED', f);
      vp.go(i);
    });
    (async () => {
      await vp.go(0);
      let t = performance.now();
      for (let i = 1; i < n; i++) await shown(i);
      const firstPass = (n - 1) / ((performance.now() - t) / 1000);
      // from memory (every image cached by now): back to the first and forth to the last again
      t = performance.now();
      let renders = 0;
      for (let i = n - 2; i >= 0; i--, renders++) await shown(i);
      for (let i = 1; i < n; i++, renders++) await shown(i);
      resolve({ firstPassFps: firstPass, cachedFps: renders / ((performance.now() - t) / 1000), images: n });
    })();
  }));
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], min: s[0], max: s[s.length - 1], runs: s.length };
};
const results = { when: new Date().toISOString(), url: fx.url, render: o.render, cpus: cpus().length, cpu: cpus()[0]?.model, ttfi: {}, wl: null, scroll: null };

const ctInstance = fx.ct512 ?? null;
const cr = fx.mixed.instances.find((i) => i.sample === 'RG3_UNCR.dcm');
const us = fx.mixed.instances.find((i) => i.sample === 'examples_ybr_color.dcm');
const cases = [
  ...(ctInstance ? [['CT 512² (16-bit, 0.5 MB)', { study: ctInstance.studyUid, series: ctInstance.seriesUid }]] : []),
  ['CR 1760² (16-bit, 6 MB)', { study: fx.mixed.studyUid, series: cr.seriesUid }],
  ['US 320×240×30 frames (JPEG, 220 KB)', { study: fx.mixed.studyUid, series: us.seriesUid }],
];
let renderer = null;
for (const [name, params] of only.has('ttfi') ? cases : []) {
  for (const loader of ['wadors', 'wadouri']) {
    const times = [];
    for (let r = 0; r < runs; r++) {
      const page = await freshPage();
      renderer ??= await page.evaluate(() => {
        const gl = document.createElement('canvas').getContext('webgl2');
        const ext = gl?.getExtension('WEBGL_debug_renderer_info');
        return ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl ? 'WebGL2' : 'no WebGL2';
      });
      times.push(await timeToFirstImage(page, { ...params, loader }));
      await page.context().close();
    }
    results.ttfi[`${name} — ${loader}`] = stats(times);
    console.log(`${name} ${loader}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  }
}
results.renderer = renderer;

if (only.has('wl')) {
  const page = await freshPage();
  const params = ctInstance ? { study: ctInstance.studyUid, series: ctInstance.seriesUid } : { study: fx.mixed.studyUid, series: fx.mixed.instances[0].seriesUid };
  await timeToFirstImage(page, params);
  const wl = [];
  for (let r = 0; r < 3; r++) wl.push(await windowLevelFps(page));
  results.wl = { image: ctInstance ? 'CT 512²' : 'CT 128²', ...stats(wl.map((x) => x.fps)) };
  console.log(`W/L drag: ${wl.map((x) => x.fps.toFixed(1)).join(', ')} renders/s`);
  await page.context().close();
}
if (only.has('scroll')) {
  const page = await freshPage();
  await timeToFirstImage(page, { study: fx.stack.studyUid, series: fx.stack.seriesUid });
  const s = await scrollFps(page);
  results.scroll = s;
  console.log(`scroll ${s.images} images: first pass ${s.firstPassFps.toFixed(1)} images/s, from memory ${s.cachedFps.toFixed(1)} images/s`);
  await page.context().close();
}
await browser.close();
if (o.json) writeFileSync(o.json, JSON.stringify(results, null, 1));
console.log(JSON.stringify(results, null, 1));
