// The store's filters in the viewer: the catalogue as the store lists it, a chain built, reordered and applied on
// the server, the displayed result compared pixel by pixel with the rendered endpoint's answer for the window on
// show, window/level and presets re-windowing a filtered CT in the page (its stored values) with no request, a
// region, before/after, the time it took, parameters checked before sending, a plugin suspended and resumed on the
// store leaving and re-entering the panel, and saving the result as a derived instance (16-bit for a CT).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { launch, newPage, login, screenshot, api } from './harness.mjs';
import { openView, seriesOf, drag, waitLit } from './10-support.mjs';

const dicomParser = createRequire(import.meta.url)('dicom-parser');

let browser, page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await login(page, 'admin');
  await openView(page, seriesOf('CT_small.dcm'));
  await page.keyboard.press('1'); // soft tissue
  // Image pixels as squares (nearest neighbour): what is drawn is then exactly the PNG's pixels, enlarged, whichever
  // rasterizer (GPU or software) draws the canvas; smooth scaling may differ by one grey level between the two.
  await page.keyboard.press('s');
  await page.locator('[data-test=smooth].active').waitFor();
});
after(async () => { await browser?.close(); });

const chainSteps = () => page.locator('[data-test=chain-step]');
async function clearChain() {
  while (await chainSteps().count()) await chainSteps().first().locator('[data-test=step-remove]').click();
}
async function applied() {
  await page.locator('[data-test=filter-status][data-state=done]').waitFor({ timeout: 30_000 });
  await page.locator('[data-test=filter-result][data-state=shown]').waitFor({ state: 'attached' });
}

/**
 * Starts recording what a re-window may not cause: requests to the store (but the catalogue's poll of /filters) and
 * the states the result layer passes through. The returned function stops and answers { requests, states }.
 */
async function watchRewindow() {
  const requests = [];
  const onRequest = (r) => {
    const u = new URL(r.url());
    if (u.pathname !== '/filters') requests.push(u.pathname + u.search);
  };
  page.on('request', onRequest);
  await page.evaluate(() => {
    const layer = document.querySelector('[data-test=filter-result]');
    window.__layerStates = [];
    window.__layerObserver?.disconnect();
    window.__layerObserver = new MutationObserver(() => window.__layerStates.push(layer.dataset.state));
    window.__layerObserver.observe(layer, { attributes: true, attributeFilter: ['data-state'] });
  });
  return async () => {
    page.off('request', onRequest);
    const states = await page.evaluate(() => { window.__layerObserver.disconnect(); return window.__layerStates; });
    return { requests, states };
  };
}

/** Waits until the result layer shows the window `text` ("c,w"), then longer than the old re-request pause. */
async function rewindowedTo(text) {
  await page.waitForFunction((w) => document.querySelector('[data-test=filter-result]').dataset.window === w, text,
    { timeout: 5_000 });
  await page.waitForTimeout(800);
}

/**
 * In the page: decodes the PNG the rendered endpoint answers for the URL the result layer shows, and compares each of
 * its pixels with what the layer displays at that pixel's centre (mapped through the layer's own image-to-screen
 * transform; centres, because where two image pixels meet on screen GPU and software rasterizers may round apart).
 * Also compares the PNG with the same request without filters: the filters must have changed something.
 */
async function compareWithEndpoint() {
  return page.evaluate(async () => {
    const layer = document.querySelector('[data-test=filter-result]');
    const t = layer.dataset.transform.split(',').map(Number);
    const decode = async (url) => {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`${url}: the store answered ${response.status} ${await response.text()}`);
      const bitmap = await createImageBitmap(await response.blob());
      const c = Object.assign(document.createElement('canvas'), { width: bitmap.width, height: bitmap.height });
      const ctx = c.getContext('2d');
      ctx.drawImage(bitmap, 0, 0);
      return ctx.getImageData(0, 0, c.width, c.height);
    };
    const png = await decode(layer.dataset.src);
    const shown = layer.getContext('2d').getImageData(0, 0, layer.width, layer.height);
    let compared = 0, differ = 0;
    const where = [];
    for (let j = 0; j < png.height; j++) {
      for (let i = 0; i < png.width; i++) {
        const x = Math.floor(t[0] * (i + 0.5) + t[2] * (j + 0.5) + t[4]), y = Math.floor(t[1] * (i + 0.5) + t[3] * (j + 0.5) + t[5]);
        if (x < 0 || y < 0 || x >= shown.width || y >= shown.height) continue;
        compared++;
        const a = (j * png.width + i) * 4, b = (y * shown.width + x) * 4;
        if (png.data[a] !== shown.data[b] || png.data[a + 1] !== shown.data[b + 1] || png.data[a + 2] !== shown.data[b + 2]) {
          differ++;
          if (where.length < 8) where.push([i, j, png.data[a], shown.data[b]]);
        }
      }
    }
    const plainUrl = new URL(layer.dataset.src, location.href);
    plainUrl.searchParams.delete('filter');
    const plain = await decode(plainUrl.pathname + plainUrl.search);
    let changed = 0;
    for (let k = 0; k < png.data.length; k += 4) if (png.data[k] !== plain.data[k]) changed++;
    return { compared, differ, where, changed, total: png.width * png.height, src: layer.dataset.src, size: [png.width, png.height] };
  });
}

test('the panel lists exactly the active filters of the store', async () => {
  const manifest = await (await api('/filters')).json();
  const active = manifest.plugins.filter((p) => p.state === 'ACTIVE').flatMap((p) => p.filters.filter((f) => !f.state || f.state === 'ACTIVE').map((f) => f.id));
  await page.locator(`[data-test=filter-${active[0]}]`).waitFor();
  const shown = await page.locator('[data-test=filter-catalogue] [data-test^=filter-]').evaluateAll((els) => els.map((e) => e.dataset.test.slice(7)));
  assert.deepEqual([...shown].sort(), [...active].sort());
  // Our own words for the known filters, not the spec's.
  assert.match(await page.locator('[data-test=filter-blur]').textContent(), /Softens the image/);
});

test('a chain built, reordered and applied on the server equals the rendered endpoint\'s image, pixel for pixel', async () => {
  await clearChain();
  await page.locator('[data-test=add-filter-blur]').click();
  await page.locator('[data-test=chain-step][data-filter=blur] [data-test=param-n]').fill('5');
  await page.locator('[data-test=add-filter-sharpen]').click();
  await page.locator('[data-test=chain-step][data-filter=sharpen] [data-test=step-up]').click(); // sharpen first
  assert.deepEqual(await chainSteps().evaluateAll((els) => els.map((e) => e.dataset.filter)), ['sharpen', 'blur']);
  await page.locator('[data-test=filter-apply]').click();
  await applied();
  const r = await compareWithEndpoint();
  assert.ok(r.compared >= r.total * 0.95, `the result is on screen (${r.compared} of ${r.total} pixel centres)`);
  assert.equal(r.differ, 0, `the displayed result is the endpoint's image (${r.differ} of ${r.total} pixels differ: ${JSON.stringify(r.where)})`);
  assert.ok(r.changed > 0, 'the filters changed the image');
  const q = new URL(r.src, 'http://x').searchParams;
  assert.deepEqual(q.getAll('filter'), ['sharpen:p=75', 'blur:n=5']);
  assert.equal(q.get('window'), '40,400', 'compared with the rendering for the window on show');
  assert.equal(await page.locator('[data-test=filter-result]').getAttribute('data-kind'), 'stored-values',
    'a CT comes back as its filtered stored values');
  assert.match(await page.locator('[data-test=filter-timing]').textContent(), /DICOM \d+ KiB/);
  assert.deepEqual(r.size, [128, 128]);
  assert.match(await page.locator('[data-test=filter-timing]').textContent(), /\d+ ms/);
  assert.deepEqual(page.problems, []);
});

test('the result follows a W/L drag at once: windowed in the page, shown throughout, no request', async () => {
  const stop = await watchRewindow();
  await drag(page, [0.5, 0.5], [0.55, 0.45]);
  const voi = await page.evaluate(() => window.__medjavaViewer.vp.voi());
  const text = `${Math.round(voi.center * 100) / 100},${Math.round(Math.max(1, voi.width) * 100) / 100}`;
  assert.notEqual(text, '40,400', 'the drag changed the window');
  await rewindowedTo(text);
  const { requests, states } = await stop();
  assert.deepEqual(requests, [], 'no request for a new window');
  assert.ok(states.length > 0 && states.every((s) => s === 'shown'), `shown all along: ${states}`);
  const r = await compareWithEndpoint();
  assert.equal(r.differ, 0, JSON.stringify(r.where));
  assert.equal(new URL(r.src, 'http://x').searchParams.get('window'), text);
  await page.keyboard.press('1');
  await rewindowedTo('40,400');
});

test('a region drawn on the image limits the filters; before, after, wipe and side by side', async () => {
  await page.locator('[data-test=tool-region]').click();
  await drag(page, [0.35, 0.35], [0.65, 0.6]);
  const text = await page.locator('[data-test=region-text]').textContent();
  assert.match(text, /^\d+, \d+, \d+, \d+$/);
  await page.locator('[data-test=tool-wl]').click();
  await page.locator('[data-test=filter-apply]').click();
  await page.waitForFunction((t) => document.querySelector('[data-test=filter-result]')?.dataset.src?.includes('region='), text);
  await applied();
  const r = await compareWithEndpoint();
  assert.equal(r.differ, 0, JSON.stringify(r.where));
  assert.ok(r.changed > 0);
  assert.equal(new URL(r.src, 'http://x').searchParams.get('region'), text.replace(/ /g, ''));

  await page.locator('[data-test=compare-before]').click();
  assert.equal(await page.locator('[data-test=filter-result]').isHidden(), true);
  await page.keyboard.press('c');
  assert.equal(await page.locator('[data-test=filter-result]').isVisible(), true);
  await page.locator('[data-test=compare-wipe]').click();
  await page.locator('[data-test=wipe-slider]').waitFor();
  await page.locator('[data-test=region-clear]').click();
  await page.locator('[data-test=compare-side]').click();
  await page.locator('[data-test=filter-result-side]').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-test=filter-result]').dataset.src.includes('region='));
  await page.locator('[data-test=filter-result][data-state=shown]').waitFor({ state: 'attached' });
  await page.waitForTimeout(300);
  await screenshot(page, 'filter-before-after');
  await page.locator('[data-test=compare-after]').click();
});

test('a CT despeckled at soft tissue is re-windowed to bone by its preset key with the filter kept, and saves as 16-bit', async () => {
  await clearChain();
  await page.locator('[data-test=add-filter-despeckle]').click();
  await page.locator('[data-test=filter-apply]').click();
  await applied();
  const layer = page.locator('[data-test=filter-result]');
  assert.equal(await layer.getAttribute('data-window'), '40,400', 'applied at soft tissue');
  const applyUrl = await layer.getAttribute('data-src');

  const stop = await watchRewindow();
  await page.keyboard.press('3'); // Bone
  await rewindowedTo('400,1800');
  const { requests, states } = await stop();
  assert.deepEqual(requests, [], 'the re-window made no request to the store');
  assert.ok(states.every((s) => s === 'shown'), `the result stayed on show: ${states}`);
  assert.equal(await layer.getAttribute('data-state'), 'shown');
  const r = await compareWithEndpoint();
  const q = new URL(r.src, 'http://x').searchParams;
  assert.equal(q.get('window'), '400,1800');
  assert.deepEqual(q.getAll('filter'), new URL(applyUrl, 'http://x').searchParams.getAll('filter'));
  assert.match(q.get('filter'), /^despeckle/);
  assert.ok(r.compared >= r.total * 0.95, `the result is on screen (${r.compared} of ${r.total} pixel centres)`);
  assert.equal(r.differ, 0, `equals the store's bone rendering of the despeckled CT (${r.differ} differ: ${JSON.stringify(r.where)})`);
  assert.ok(r.changed > 0, 'despeckle changed the bone rendering');

  // Saved: the filtered stored values at the CT's own depth, the window on show as its default.
  await page.locator('[data-test=filter-save]').click();
  await page.locator('[data-test=filter-status][data-state=saved], [data-test=filter-status][data-state=error]').waitFor({ timeout: 60_000 });
  const status = await page.locator('[data-test=filter-status]').textContent();
  const saved = /Saved as (\S+)\./.exec(status)?.[1];
  assert.ok(saved, `saved: ${status}`);
  // The long store path stays within the panel (wrapped, the whole of it in a title): no sideways overflow.
  const fit = await page.locator('[data-test=filter-status]').evaluate((el) => {
    const panel = el.closest('.filters-panel');
    const path = el.querySelector('[data-test=saved-path]');
    const p = panel.getBoundingClientRect();
    const boxes = [...path.getClientRects()];
    return { status: [el.scrollWidth, el.clientWidth], panel: [panel.scrollWidth, panel.clientWidth],
      inside: boxes.every((b) => b.left >= p.left - 0.5 && b.right <= p.right + 0.5), title: path.title };
  });
  assert.ok(fit.status[0] <= fit.status[1], `the status overflows: ${fit.status}`);
  assert.ok(fit.panel[0] <= fit.panel[1], `the panel scrolls sideways: ${fit.panel}`);
  assert.ok(fit.inside, 'the path is drawn inside the panel');
  assert.equal(fit.title, saved);
  try {
    const file = await api(`/images/${saved}`);
    assert.equal(file.status, 200);
    const derived = dicomParser.parseDicom(new Uint8Array(await file.arrayBuffer()));
    const sourceUrl = new URL(r.src, 'http://x');
    const source = dicomParser.parseDicom(new Uint8Array(await (await api(sourceUrl.pathname)).arrayBuffer()));
    assert.equal(derived.uint16('x00280100'), 16, 'BitsAllocated 16');
    assert.equal(derived.uint16('x00280101'), source.uint16('x00280101'), 'BitsStored of the CT');
    assert.equal(derived.uint16('x00280103'), source.uint16('x00280103'), 'PixelRepresentation of the CT');
    assert.equal(derived.floatString('x00281052'), source.floatString('x00281052'), 'RescaleIntercept of the CT');
    assert.equal(derived.string('x00080060'), 'CT');
    assert.equal(derived.floatString('x00281050'), 400, 'the bone window as its default');
    // Its pixels are the stored values the viewer windowed.
    sourceUrl.searchParams.set('render', 'dicom');
    const shown = dicomParser.parseDicom(new Uint8Array(await (await api(sourceUrl.pathname + sourceUrl.search)).arrayBuffer()));
    const pixels = (ds) => Buffer.from(ds.byteArray.buffer, ds.byteArray.byteOffset + ds.elements.x7fe00010.dataOffset, ds.elements.x7fe00010.length);
    assert.ok(pixels(derived).equals(pixels(shown)), 'the saved pixel data are the filtered stored values');
  } finally {
    await api(`/images/${saved}`, { method: 'DELETE' });
  }
  assert.deepEqual(page.problems, []);
  await page.keyboard.press('1');
});

test('parameters are checked against the store\'s rules before anything is sent', async () => {
  await clearChain();
  await page.locator('[data-test=add-filter-blur]').click();
  const n = page.locator('[data-test=chain-step][data-filter=blur] [data-test=param-n]');
  await n.fill('4');
  await page.locator('[data-test=chain-step][data-filter=blur] .param-problem').filter({ hasText: /odd/ }).waitFor();
  assert.equal(await page.locator('[data-test=filter-apply]').isDisabled(), true);
  await n.fill('3');
  assert.equal(await page.locator('[data-test=filter-apply]').isDisabled(), false);
});

test('a plugin suspended on the store leaves the panel within seconds and comes back when resumed', async () => {
  await page.locator('[data-test=add-filter-emboss]').click();
  const suspend = await api('/filters/emboss/suspend', { method: 'POST' });
  assert.ok(suspend.ok, `suspend: ${suspend.status}`);
  try {
    await page.locator('[data-test=filter-emboss]').waitFor({ state: 'detached', timeout: 15_000 });
    await page.locator('[data-test=chain-step][data-filter=emboss].gone').waitFor();
    assert.equal(await page.locator('[data-test=filter-apply]').isDisabled(), true, 'a chain naming it cannot be applied');
  } finally {
    const resume = await api('/filters/emboss/resume', { method: 'POST' });
    assert.ok(resume.ok, `resume: ${resume.status}`);
  }
  await page.locator('[data-test=filter-emboss]').waitFor({ timeout: 15_000 });
  await page.locator('[data-test=chain-step][data-filter=emboss]:not(.gone)').waitFor();
  assert.equal(await page.locator('[data-test=filter-apply]').isDisabled(), false);
});

test('save: the result becomes a derived instance of the study that opens in the viewer (or the store says why not)', async () => {
  await clearChain();
  await page.locator('[data-test=add-filter-blur]').click();
  await page.locator('[data-test=filter-save]').click();
  await page.locator('[data-test=filter-status][data-state=saved], [data-test=filter-status][data-state=error]').waitFor({ timeout: 60_000 });
  const status = page.locator('[data-test=filter-status]');
  if (await status.getAttribute('data-state') === 'error') {
    // A store without POST /derived: the reason is shown readably.
    assert.match(await status.textContent(), /derived|store/i);
    return;
  }
  const saved = /Saved as (\S+)\./.exec(await status.textContent())[1];
  try {
    await page.locator('[data-test=open-derived]').click();
    await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
    const params = new URLSearchParams(page.url().split('?')[1]);
    const [, , studyUid, seriesUid] = saved.split('/'); // dicom/{patient}/{study}/{series}/{instance}.dcm
    assert.equal(params.get('study'), studyUid);
    assert.equal(params.get('series'), seriesUid, 'the derived series is on show');
    await page.locator(`[data-test=series-item].current[data-series="${seriesUid}"]`).waitFor();
    assert.match(await page.locator('[data-test=series-item].current').textContent(), /blur/i, 'named after its chain');
    await waitLit(page);
  } finally {
    await api(`/images/${saved.replace(/\.$/, '')}`, { method: 'DELETE' }); // leave the study as the other tests expect it
  }
  assert.deepEqual(page.problems, []);
});
