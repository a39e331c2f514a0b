// The store's filters in the viewer: the catalogue as the store lists it, a chain built, reordered and applied on
// the server for the window on show, the displayed result compared pixel by pixel with the rendered endpoint's answer
// to the same request, a region, before/after, the time it took, parameters checked before sending, a plugin
// suspended and resumed on the store leaving and re-entering the panel, and saving the result as a derived instance.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, screenshot, api } from './harness.mjs';
import { openView, seriesOf, drag, waitLit } from './10-support.mjs';

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
      const bitmap = await createImageBitmap(await (await fetch(url, { credentials: 'same-origin' })).blob());
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
  assert.equal(q.get('window'), '40,400', 'rendered with the window on show');
  assert.deepEqual(r.size, [128, 128]);
  assert.match(await page.locator('[data-test=filter-timing]').textContent(), /\d+ ms/);
  assert.deepEqual(page.problems, []);
});

test('the result follows the window: a W/L drag hides it at once and it comes back for the new window', async () => {
  const before = await page.locator('[data-test=filter-result]').getAttribute('data-src');
  await drag(page, [0.5, 0.5], [0.55, 0.45]);
  await page.waitForFunction((src) => {
    const l = document.querySelector('[data-test=filter-result]');
    return l.dataset.state === 'shown' && l.dataset.src !== src;
  }, before, { timeout: 30_000 });
  const r = await compareWithEndpoint();
  assert.equal(r.differ, 0);
  assert.notEqual(new URL(r.src, 'http://x').searchParams.get('window'), '40,400');
  await page.keyboard.press('1');
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
