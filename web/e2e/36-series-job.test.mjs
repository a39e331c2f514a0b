// The filter panel's "Apply to the whole series…": a chain run by the store over every instance of a CT series as a
// derive-series job, its progress shown until done, the derived series opened in the viewer; and a job cancelled
// while it runs, leaving nothing behind.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, screenshot, api, fixtures } from './harness.mjs';
import { openView, position } from './10-support.mjs';

let browser, page;
const leftovers = []; // derived series to remove, so that the studies stay as the other tests expect them
const cleanups = [];
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await login(page, 'admin');
});
after(async () => {
  for (const c of cleanups) await c();
  for (const uid of leftovers) {
    const instances = await (await api(`/index/series/${uid}/instances`)).json();
    for (const i of instances) await api(`/images/${i.path}`, { method: 'DELETE' });
  }
  await browser?.close();
});

async function applyToSeries(filterIds) {
  for (const id of filterIds) await page.locator(`[data-test=add-filter-${id}]`).click();
  await page.locator('[data-test=series-apply]:enabled').click();
  await page.locator('[data-test=confirm-ok]').click();
}

test('a chain applied to the whole series shows its progress and opens the derived series', async () => {
  const job = fixtures.seriesJob;
  await openView(page, { study: job.studyUid, series: job.seriesUid });
  await page.keyboard.press('1'); // a CT window: it becomes the derived objects' own
  const seen = [];
  page.on('response', async (r) => {
    if (/\/jobs\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'GET') {
      try { const j = await r.json(); seen.push(`${j.state} ${j.done}/${j.total}`); } catch { /* page gone */ }
    }
  });
  await applyToSeries(['blur']);
  const status = page.locator('[data-test=series-job-status]');
  await page.locator('[data-test=series-job-status][data-state=done]').waitFor({ timeout: 60_000 });
  assert.match(await status.textContent(), new RegExp(`Done: ${job.count} images kept as a derived series`));
  assert.ok(seen.includes(`DONE ${job.count}/${job.count}`), seen.join(', '));
  await screenshot(page, 'filter-series-job-done');

  await page.locator('[data-test=open-derived-series]').click();
  await page.waitForFunction((s) => location.hash.includes('series=') && !location.hash.includes(s), job.seriesUid);
  const derived = new URLSearchParams(page.url().split('?')[1]).get('series');
  leftovers.push(derived);
  await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
  await page.waitForFunction((n) => new RegExp(`/ ${n}\\)`).test(document.querySelector('[data-test=overlay-position]')?.textContent ?? ''),
    job.count, { timeout: 30_000 });
  assert.equal((await position(page)).count, job.count);
  const instances = await (await api(`/index/series/${derived}/instances`)).json();
  assert.equal(instances.length, job.count);
  for (const i of instances) {
    assert.equal(i.Modality, 'CT');
    assert.equal(i.BitsAllocated, 16, 'kept at the source depth');
  }
});

test('a running series job is cancelled from the panel and what it wrote is removed', async () => {
  // the 100-image stack with a slower chain: long enough to be cancelled part-way
  const stack = fixtures.stack;
  await openView(page, { study: stack.studyUid, series: stack.seriesUid });
  const seriesBefore = await (await api(`/index/studies/${stack.studyUid}/series`)).json();
  cleanups.push(async () => { // should the cancellation fail, the stack study stays as the other tests expect it
    const now = await (await api(`/index/studies/${stack.studyUid}/series`)).json();
    for (const s of now) if (!seriesBefore.some((b) => b.SeriesInstanceUID === s.SeriesInstanceUID)) leftovers.push(s.SeriesInstanceUID);
  });
  await page.locator('[data-test=add-filter-oil-paint]').click();
  await page.locator('[data-test=chain-step][data-filter=oil-paint] [data-test=param-n]').fill('9');
  await applyToSeries(['despeckle']);
  await page.locator('[data-test=series-job-status]', { hasText: /Deriving the series on the store: [1-9]\d* of 100/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-test=series-cancel]').click();
  await page.locator('[data-test=series-job-status][data-state=cancelled]').waitFor({ timeout: 60_000 });
  const text = await page.locator('[data-test=series-job-status]').textContent();
  assert.match(text, /^Cancelled: cancelled after (\d+) of 100; the \1 derived instances written were removed$/);
  await screenshot(page, 'filter-series-job-cancelled');
  const seriesAfter = await (await api(`/index/studies/${stack.studyUid}/series`)).json();
  assert.equal(seriesAfter.length, seriesBefore.length, 'no derived series left in the study');
});
