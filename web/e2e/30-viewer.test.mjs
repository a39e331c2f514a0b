// The viewport: window/level by drag and by presets (CT windows only for CT), invert, rotate, zoom, measurements
// (length in mm, ROI mean/SD in HU), the 30-frame US by keys and cine, the 100-image series by wheel and keys,
// JPEG 2000 and the 1760² CR decoded on the client, the help popover.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, fixtures, canvasDigest, screenshot } from './harness.mjs';
import { openView, seriesOf, overlay, drag, position, waitPosition } from './10-support.mjs';

let browser, page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await login(page, 'admin');
});
after(async () => { await browser?.close(); });

/** Waits until the canvas differs from `before` (rendering is asynchronous). */
async function changedFrom(before, timeout = 10_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const now = await canvasDigest(page);
    if (now.hash !== before.hash) return now;
    if (Date.now() > end) assert.fail('the image on the canvas did not change');
    await page.waitForTimeout(100);
  }
}

test('the CT: window/level by drag changes the pixels and the overlay at once', async () => {
  await openView(page, seriesOf('CT_small.dcm'));
  const before = await canvasDigest(page);
  assert.ok(before.lit > before.width * before.height * 0.2, 'the CT fills a good part of the viewport');
  assert.match(await overlay(page, 'overlay-tl'), new RegExp(fixtures.mixed.patientId));
  const wl = await overlay(page, 'overlay-window');
  await drag(page, [0.5, 0.5], [0.3, 0.6]); // left = narrower, down = higher level
  const after = await changedFrom(before);
  assert.notEqual(after.sum, before.sum);
  assert.notEqual(await overlay(page, 'overlay-window'), wl);
  assert.deepEqual(page.problems, []);
});

test('CT presets by key and list; invert, rotate, 1:1 and fit', async () => {
  await openView(page, seriesOf('CT_small.dcm'));
  const options = await page.locator('[data-test=presets] option').allTextContents();
  for (const name of ['Soft tissue', 'Lung', 'Bone', 'Brain', 'Full range']) assert.ok(options.some((o) => o.includes(name)), name);
  await page.keyboard.press('2'); // lung
  await page.waitForFunction(() => /W 1500\s+L -600/.test(document.querySelector('[data-test=overlay-window]')?.textContent));
  const lung = await canvasDigest(page);
  await page.keyboard.press('1'); // soft tissue
  await page.waitForFunction(() => /W 400\s+L 40/.test(document.querySelector('[data-test=overlay-window]')?.textContent));
  const soft = await changedFrom(lung);
  await page.locator('[data-test=invert]').click();
  await changedFrom(soft);
  assert.match(await overlay(page, 'overlay-br'), /Inverted/);
  await page.keyboard.press('r');
  await page.waitForFunction(() => /Rot 90°/.test(document.querySelector('[data-test=overlay-br]')?.textContent));
  await page.keyboard.press('a'); // one image pixel per screen pixel
  await page.waitForFunction(() => /Zoom 100%/.test(document.querySelector('[data-test=overlay-zoom]')?.textContent));
  await page.keyboard.press('f');
  await page.waitForFunction(() => !/Zoom 100%/.test(document.querySelector('[data-test=overlay-zoom]')?.textContent));
  await page.keyboard.press('Escape'); // reset: window, rotation, inversion
  await page.waitForFunction(() => !/Rot|Inverted/.test(document.querySelector('[data-test=overlay-br]')?.textContent));
});

test('MR and CR get their own windows and full range, no CT presets', async () => {
  for (const name of ['MR_small.dcm', 'RG3_UNCR.dcm']) {
    await openView(page, seriesOf(name));
    const options = await page.locator('[data-test=presets] option').allTextContents();
    assert.ok(options.some((o) => o.includes('Full range')), `${name}: ${options}`);
    assert.ok(!options.some((o) => /Lung|Bone|Brain/.test(o)), `${name} offers no CT windows: ${options}`);
    await page.keyboard.press('0');
    const d = await canvasDigest(page);
    assert.ok(d.lit > 0, `${name} shows pixels`);
  }
  assert.deepEqual(page.problems, []);
});

test('measurements: a length in mm and a rectangle ROI with mean and SD in HU', async () => {
  await openView(page, seriesOf('CT_small.dcm'));
  await page.keyboard.press('1');
  await page.locator('[data-test=tool-length]').click();
  await drag(page, [0.3, 0.3], [0.6, 0.5]);
  await page.locator('[data-test=tool-rectangle]').click();
  await drag(page, [0.4, 0.55], [0.6, 0.75]);
  const texts = () => page.locator('[data-test=viewport] svg text').allTextContents();
  const roiShown = (timeout) => page.waitForFunction(
    () => [...document.querySelectorAll('[data-test=viewport] svg text')].some((t) => /HU/.test(t.textContent)),
    null, { timeout });
  if (!(await roiShown(15_000).then(() => true, () => false))) {
    // on a loaded machine (CI) the drag's mouse events can be lost: draw the ROI once more, then it must show
    await page.locator('[data-test=tool-rectangle]').click();
    await drag(page, [0.35, 0.6], [0.55, 0.8]);
    await roiShown(30_000);
  }
  const all = (await texts()).join(' | ');
  assert.match(all, /\d+(\.\d+)? mm\b/, `a length in mm: ${all}`);
  assert.match(all, /Mean:\s*-?[\d.]+\s*HU/, `the ROI's mean in HU: ${all}`);
  assert.match(all, /Std Dev:\s*[\d.]+\s*HU/, `the ROI's SD in HU: ${all}`);
  await screenshot(page, 'viewer-ct-roi');
  await page.locator('[data-test=tool-wl]').click();
});

test('the 30-frame US: frames by keys and by cine at a chosen rate', async () => {
  await openView(page, seriesOf('examples_ybr_color.dcm'));
  assert.match(await overlay(page, 'overlay-bl'), /Frame 1 \/ 30/);
  const first = await canvasDigest(page);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => /Frame 2 \/ 30/.test(document.querySelector('[data-test=overlay-bl]')?.textContent));
  await changedFrom(first);
  await page.locator('[data-test=cine-fps]').fill('10');
  await page.locator('[data-test=cine-play]').click();
  await page.waitForFunction(() => /Cine 10 fps/.test(document.querySelector('[data-test=overlay-br]')?.textContent));
  await page.waitForFunction(() => Number(/Frame (\d+)/.exec(document.querySelector('[data-test=overlay-bl]')?.textContent)?.[1]) >= 6,
    null, { timeout: 15_000 });
  await page.locator('[data-test=cine-play]').click();
  await page.waitForFunction(() => !/Cine/.test(document.querySelector('[data-test=overlay-br]')?.textContent));
  const stopped = (await position(page)).index;
  await page.waitForTimeout(500);
  assert.equal((await position(page)).index, stopped, 'cine stopped');
  assert.deepEqual(page.problems, []);
});

test('the 100-image series: wheel, keys and the slider', async () => {
  await openView(page, { study: fixtures.stack.studyUid, series: fixtures.stack.seriesUid });
  assert.deepEqual(await position(page), { index: 1, count: fixtures.stack.count });
  const box = await page.locator('[data-test=viewport]').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 10; i++) {
    await page.mouse.wheel(0, 100);
    await page.waitForTimeout(30);
  }
  await page.waitForFunction(() => Number(/\((\d+) \//.exec(document.querySelector('[data-test=overlay-position]')?.textContent)?.[1]) > 5);
  await page.keyboard.press('End');
  await waitPosition(page, fixtures.stack.count);
  await page.keyboard.press('Home');
  await waitPosition(page, 1);
  await page.locator('[data-test=stack-slider]').fill('50');
  await waitPosition(page, 50);
  assert.match(await overlay(page, 'overlay-bl'), /Im 50/);
  const d = await canvasDigest(page);
  assert.ok(d.lit > 0);
  await page.waitForFunction(() => location.hash.includes('instance='));
  assert.deepEqual(page.problems, []);
});

test('JPEG 2000 and the 1760² CR are decoded on the client', async () => {
  for (const name of ['JPEG2000.dcm', 'RG3_UNCR.dcm']) {
    await openView(page, seriesOf(name));
    const d = await canvasDigest(page);
    assert.ok(d.lit > d.width * d.height * 0.05, `${name} shows an image`);
  }
  assert.deepEqual(page.problems, []);
});

test('the help lists the keyboard shortcuts', async () => {
  await openView(page, seriesOf('CT_small.dcm'));
  await page.keyboard.press('?');
  const help = page.locator('[data-test=help]');
  await help.waitFor();
  const text = await help.textContent();
  for (const k of ['Home / End', 'Space', 'invert', 'rotate', 'fit', 'actual size', 'Esc']) assert.ok(text.includes(k), k);
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'hidden' });
});
