// Issue 34's study-open benchmark in a real browser (a measurement, not a test): the store's web viewer and OHIF,
// each against the servers the plan names (the store, Orthanc behind an nginx front), on each study, in each network
// profile, `runs` times in a fresh browser context (cold HTTP cache, new Cornerstone). Driven by the benchmarks'
// StudyOpen (./medjava bench study-open), which starts the servers, stores the studies and writes the plan:
//   node bench/study-open.mjs PLAN.json OUT.json
// PLAN: { runs, profiles: [...], cases: [{ viewer: web|ohif, server, url, user, password, study: { name, studyUid,
//         seriesUid, frames } }] }
// One unrecorded warm-up run per case first. Per run: time from the route change (the click on a study, the
// application already loaded) to the first image drawn, to the last frame's response, and the wheel-scroll rate once
// every frame is loaded; the load average at its start. "Drawn" is Cornerstone's first IMAGE_RENDERED after it put an
// image into a viewport (both viewers are Cornerstone3D), checked after the run by a screenshot of the viewport that
// must be lit. docs/benchmarks.md ("Study open in a real browser") says more.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import { chromium } from 'playwright-core';

const [planFile, outFile] = process.argv.slice(2);
if (!planFile || !outFile) throw new Error('usage: node bench/study-open.mjs PLAN.json OUT.json');
const plan = JSON.parse(readFileSync(planFile, 'utf8'));

/** Chrome DevTools network emulation; latency is added to each request's time to the response headers. */
const PROFILES = {
  loopback: null,
  throttled: { offline: false, latency: 20, downloadThroughput: 100e6 / 8, uploadThroughput: 100e6 / 8 },
};
const FIRST_IMAGE_LIMIT = 60_000;
const ALL_FRAMES_LIMIT = 120_000;
const FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/**
 * Installed before any page script: a resource-timing buffer for every frame, and the first image drawn — the first
 * IMAGE_RENDERED after Cornerstone put an image into a viewport (STACK_NEW_IMAGE or VOLUME_NEW_IMAGE) after t0.
 * (The event's viewportStatus is no guide: under throttling the first draws of the image still say needsRender.)
 */
function instrument() {
  performance.setResourceTimingBufferSize(100_000);
  window.__open = { t0: null, first: null, image: false };
  const onImage = () => { if (window.__open.t0 !== null) window.__open.image = true; };
  document.addEventListener('CORNERSTONE_STACK_NEW_IMAGE', onImage, true); // capture: these events do not bubble
  document.addEventListener('CORNERSTONE_VOLUME_NEW_IMAGE', onImage, true);
  document.addEventListener('CORNERSTONE_IMAGE_RENDERED', () => {
    if (window.__open.image) window.__open.first ??= performance.now() - window.__open.t0;
  }, true);
}

async function login(page, c) {
  await page.goto(`${c.url}/viewer/#/login`);
  await page.fill('[data-test=login-user]', c.user);
  await page.fill('[data-test=login-password]', c.password);
  await page.click('[data-test=login-submit]');
  await page.locator('[data-test=session-user]').waitFor();
}

/** Closes OHIF's first-visit tour and its investigational-use banner, which cover the viewport (as 60-ohif.test). */
async function dismissOverlays(page) {
  for (const name of ['Skip all', 'Confirm and hide']) {
    for (const control of [page.getByRole('button', { name }), page.getByText(name, { exact: true })]) {
      if (await control.count()) await control.first().click({ timeout: 2000 }).catch(() => {});
    }
  }
}

/** Loads the viewer application at its study list: what a radiologist has open before the click. */
async function openApplication(page, c) {
  if (c.viewer === 'ohif') {
    await page.goto(`${c.url}/ohif/`);
    await page.locator('tbody tr').first().waitFor({ timeout: 60_000 });
    await dismissOverlays(page);
  }
  await page.waitForLoadState('networkidle');
}

/** The click: a route change inside the loaded application, t0 taken just before it. */
async function routeToStudy(page, c) {
  const { studyUid, seriesUid } = c.study;
  const target = c.viewer === 'web'
    ? { hash: `#/view?${new URLSearchParams({ study: studyUid, series: seriesUid })}` }
    : { path: `/ohif/viewer?${new URLSearchParams({ StudyInstanceUIDs: studyUid,
      initialSeriesInstanceUID: seriesUid })}` };
  await page.evaluate((t) => {
    window.__open.t0 = performance.now();
    if (t.hash) {
      location.hash = t.hash;
    } else { // OHIF's router (react-router) follows history changes announced by popstate
      history.pushState({}, '', t.path);
      window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
    }
  }, target);
}

/** The first image's time (ms after t0); fails after the limit, or 5 s after a DICOMweb request was refused. */
async function firstImage(page, failures) {
  const limit = Date.now() + FIRST_IMAGE_LIMIT;
  let refusedAt = null;
  while (Date.now() < limit) {
    const first = await page.evaluate(() => window.__open.first);
    if (first !== null) return first;
    if (failures.length) refusedAt ??= Date.now();
    if (refusedAt && Date.now() - refusedAt > 5000) {
      const refused = [...new Set(failures)].slice(0, 3).join(', ');
      throw new Error(`no image; ${failures.length} DICOMweb requests refused: ${refused}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no image within ${FIRST_IMAGE_LIMIT / 1000} s`);
}

/**
 * The last frame's response end (ms after t0) once as many distinct frame URLs of the opened series as it has frames
 * answered after t0 (other series' frames, which a viewer may prefetch too, do not count); null when they did not
 * within the limit, or when DICOMweb requests failed and no new frame came for 5 s.
 */
async function allFrames(page, study, failures) {
  const limit = Date.now() + ALL_FRAMES_LIMIT;
  const frames = study.frames;
  let seen = 0, progress = Date.now();
  while (Date.now() < limit) {
    const { n, last } = await page.evaluate((series) => {
      const t0 = window.__open.t0;
      const ends = new Map();
      for (const e of performance.getEntriesByType('resource')) {
        if (e.startTime >= t0 && e.name.includes(series) && /\/frames\/\d/.test(e.name) && e.responseEnd > 0) {
          ends.set(e.name, Math.max(ends.get(e.name) ?? 0, e.responseEnd));
        }
      }
      return { n: ends.size, last: ends.size ? Math.max(...ends.values()) - t0 : null };
    }, `/series/${study.seriesUid}/`);
    if (n >= frames) return { ms: last, frames: n };
    if (n > seen) [seen, progress] = [n, Date.now()];
    if (failures.length && Date.now() - progress > 5000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ms: null, frames: seen };
}

/**
 * Wheel scrolling from memory: one wheel event on the viewport per image, the next one as soon as Cornerstone
 * announced a new image and drew it; down to the end of the series, then up to the start. Images per second over the
 * time spent scrolling (a pass ends at its last new image, when a wheel brings none within 3 s).
 */
async function wheelRate(page, viewer) {
  return page.evaluate(async (selector) => {
    const element = document.querySelector(selector);
    if (!element) throw new Error(`no viewport (${selector})`);
    const r = element.getBoundingClientRect();
    const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true };
    const next = () => new Promise((resolve) => {
      let fresh = false;
      const onNew = () => { fresh = true; };
      const onDrawn = () => { if (fresh) done(true); };
      const timer = setTimeout(() => done(false), 3000); // a loaded machine draws slowly
      function done(moved) {
        clearTimeout(timer);
        document.removeEventListener('CORNERSTONE_STACK_NEW_IMAGE', onNew, true);
        document.removeEventListener('CORNERSTONE_VOLUME_NEW_IMAGE', onNew, true);
        document.removeEventListener('CORNERSTONE_IMAGE_RENDERED', onDrawn, true);
        resolve(moved);
      }
      document.addEventListener('CORNERSTONE_STACK_NEW_IMAGE', onNew, true);
      document.addEventListener('CORNERSTONE_VOLUME_NEW_IMAGE', onNew, true);
      document.addEventListener('CORNERSTONE_IMAGE_RENDERED', onDrawn, true);
    });
    let images = 0, ms = 0;
    for (const deltaY of [100, -100]) {
      const start = performance.now();
      let last = start;
      for (let i = 0; i < 10_000; i++) {
        const moved = next();
        const target = element.querySelector('canvas') ?? element;
        target.dispatchEvent(new WheelEvent('wheel', { ...at, deltaY, deltaMode: 0 }));
        if (!(await moved)) break;
        images++;
        last = performance.now();
      }
      ms += last - start;
    }
    return { imagesPerSecond: ms > 0 ? images / (ms / 1000) : null, images };
  }, viewer === 'web' ? '[data-test=viewport]' : '[data-viewport-uid]');
}

/** Share of the middle half of the viewport that is lit (screenshot decoded in a blank page): the image is there. */
async function litShare(page, analyzer, viewer) {
  const viewport = page.locator(viewer === 'web' ? '[data-test=viewport]' : '[data-viewport-uid]');
  const box = await viewport.first().boundingBox();
  const clip = { x: box.x + box.width / 4, y: box.y + box.height / 4, width: box.width / 2, height: box.height / 2 };
  const png = (await page.screenshot({ clip })).toString('base64');
  return analyzer.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    let lit = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] > 72) lit++;
    return lit / (data.length / 4);
  }, png);
}

async function oneRun(browser, analyzer, c, profile) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  try {
    await context.addInitScript(instrument);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    const failures = []; // frame and metadata requests the server refused (400 and more)
    page.on('response', (r) => { // thumbnails and rendered previews are not the study's pixels (Orthanc has no /thumbnail)
      if (r.status() >= 400 && /\/dicom-?web\/.*\/(frames\/\d+|metadata)$/.test(new URL(r.url()).pathname)) {
        const path = new URL(r.url()).pathname.replace(/\/studies\/.*\/([^/]+\/[^/]+)$/, '/studies/…/$1');
        failures.push(`${r.status()} ${path}`);
      }
    });
    await login(page, c);
    await openApplication(page, c);
    const cdp = await context.newCDPSession(page);
    if (PROFILES[profile]) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', PROFILES[profile]);
    }
    const load1 = loadavg()[0];
    await routeToStudy(page, c);
    const firstImageMs = await firstImage(page, failures);
    const all = await allFrames(page, c.study, failures);
    const scroll = all.ms === null ? { imagesPerSecond: null, images: 0 } : await wheelRate(page, c.viewer);
    // the rest of the run is not timed: back to the full speed of the loopback
    if (PROFILES[profile]) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0,
      downloadThroughput: -1, uploadThroughput: -1 });
    if (c.viewer === 'ohif') await dismissOverlays(page);
    const lit = await litShare(page, analyzer, c.viewer);
    const refused = failures.length ? `; ${failures.length} DICOMweb requests refused: `
      + [...new Set(failures)].slice(0, 3).join(', ') : '';
    if (lit < 0.05) {
      throw new Error(`no image on screen after the first-image event (lit share ${lit.toFixed(3)})${refused}`);
    }
    if (all.ms === null) throw new Error(`${all.frames} of ${c.study.frames} frames arrived${refused}`);
    return { firstImageMs, allFramesMs: all.ms, framesSeen: all.frames, scrollImagesPerSecond: scroll.imagesPerSecond,
      scrolledImages: scroll.images, lit, load1, loadEnd: loadavg()[0], refused: failures.length,
      errors: errors.slice(0, 5) };
  } catch (e) {
    return { error: String(e.message ?? e), load1: loadavg()[0], errors: errors.slice(0, 5) };
  } finally {
    await context.close();
  }
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
const analyzer = await browser.newPage();
const results = { when: new Date().toISOString(), chromium: browser.version(), cpus: cpus().length,
  cpu: cpus()[0]?.model, runsPerCase: plan.runs, profiles: plan.profiles, cases: [] };
const warmed = new Set();
try {
  for (const profile of plan.profiles) {
    for (const c of plan.cases) {
      const runs = [];
      // once per case, a run that is not recorded: the servers' first requests (a cold JIT, cold disk) are not the
      // study open being measured
      const key = `${c.viewer} ${c.server} ${c.study.name}`;
      if (!warmed.has(key)) {
        warmed.add(key);
        const w = await oneRun(browser, analyzer, c, profile);
        console.log(`${key}: warm-up run ${w.error ? `failed: ${w.error}` : 'done'}`);
      }
      for (let r = 0; r < plan.runs; r++) {
        const run = await oneRun(browser, analyzer, c, profile);
        runs.push(run);
        console.log(`${c.viewer} on ${c.server}, ${c.study.name}, ${profile}, run ${r + 1}: `
          + (run.error ? `failed: ${run.error}` : `first image ${run.firstImageMs?.toFixed(0)} ms, all frames `
          + `${run.allFramesMs?.toFixed(0) ?? `- (${run.framesSeen} of ${c.study.frames})`} ms, scroll `
          + `${run.scrollImagesPerSecond?.toFixed(1) ?? '-'} images/s, lit ${run.lit?.toFixed(2)}`)
          + `, load ${run.load1.toFixed(2)}`);
      }
      const ok = runs.filter((x) => !x.error);
      results.cases.push({ viewer: c.viewer, server: c.server, study: c.study.name, frames: c.study.frames, profile,
        median: { firstImageMs: median(ok.map((x) => x.firstImageMs)),
          allFramesMs: median(ok.map((x) => x.allFramesMs)),
          scrollImagesPerSecond: median(ok.map((x) => x.scrollImagesPerSecond)),
          load1: median(runs.map((x) => x.load1)) },
        failed: runs.length - ok.length, runs });
      writeFileSync(outFile, JSON.stringify(results, null, 1));
    }
  }
} finally {
  await browser.close();
}
writeFileSync(outFile, JSON.stringify(results, null, 1));
