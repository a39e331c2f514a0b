// The study list and the file browser: search, paging, sorting, series thumbnails, opening the viewer; the store's
// directory tree with Delete after a confirmation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, screenshot, api } from './harness.mjs';
import { sample, scratch } from './10-support.mjs';

let browser, page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
  await login(page, 'admin');
});
after(async () => { await browser?.close(); });

const rows = () => page.locator('[data-test=study-row]');
// The answer to the address now in the bar: until the router replaces the page, the previous search's status (and
// rows) are still there, done, so a bare wait for [data-state] could read the page before.
const answered = async (state = undefined) => {
  await page.waitForFunction((want) => {
    const s = document.querySelector('[data-test=studies-status]');
    return s?.dataset.hash === location.hash && (want ? s.dataset.state === want : s.dataset.state);
  }, state);
};
const search = async (hash) => {
  await page.goto(`${base}/viewer/#/studies${hash}`);
  await answered();
};

test('searching by patient ID finds the mixed study with all its modalities', async () => {
  await page.goto(`${base}/viewer/#/studies`);
  await page.locator('[data-test=search-id]').fill(fixtures.mixed.patientId);
  await page.locator('[data-test=search-submit]').click();
  await page.waitForFunction(() => location.hash.includes('id='));
  await answered('done');
  assert.equal(await rows().count(), 1);
  const row = rows().first();
  assert.equal(await row.getAttribute('data-study'), fixtures.mixed.studyUid);
  const modalities = await row.locator('[data-col=ModalitiesInStudy]').textContent();
  for (const m of ['CT', 'MR', 'CR', 'US']) assert.match(modalities, new RegExp(`\\b${m}\\b`));
  assert.equal(await row.locator('[data-col=NumberOfStudyRelatedSeries]').textContent(), '5');
});

test('expanding a study shows its series with thumbnails; a series opens in the viewer', async () => {
  await search(`?id=${encodeURIComponent(fixtures.mixed.patientId)}`);
  await page.locator('[data-test=study-expand]').first().click();
  const cards = page.locator('[data-test=series-card]');
  await cards.first().waitFor();
  assert.equal(await cards.count(), 5);
  // Every thumbnail arrives as a real picture (the thumbnail resource or the rendered PNG of the first instance).
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll('[data-test=series-card] img')];
    return imgs.length === 5 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, null, { timeout: 60_000 });
  await screenshot(page, 'study-list');
  const ct = sample('CT_small.dcm');
  await page.locator(`[data-test=series-card][data-series="${ct.seriesUid}"]`).click();
  await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
  assert.match(page.url(), new RegExp(`series=${ct.seriesUid.replace(/\./g, '\\.')}`));
  assert.match(await page.locator('[data-test=overlay-bl]').textContent(), /CT/);
});

test('a study row opens the viewer on that study', async () => {
  await search(`?id=${encodeURIComponent(fixtures.stack.patientId)}`);
  await rows().first().click();
  await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
  assert.match(page.url(), new RegExp(`study=${fixtures.stack.studyUid.replace(/\./g, '\\.')}`));
  assert.match(await page.locator('[data-test=overlay-position]').textContent(), new RegExp(`/ ${fixtures.stack.count}\\)`));
});

test('paging with limit and offset, and sorting by a column', async () => {
  const both = [fixtures.mixed.patientId, fixtures.stack.patientId];
  const common = both[0].slice(0, [...both[0]].findIndex((c, i) => c !== both[1][i])) + '*'; // e.g. WEB-E2E-*
  await search(`?id=${encodeURIComponent(common)}&limit=1`);
  assert.equal(await rows().count(), 1);
  const first = await rows().first().getAttribute('data-study');
  assert.equal(await page.locator('[data-test=page-prev]').isDisabled(), true);
  await page.locator('[data-test=page-next]').click();
  await page.waitForFunction(() => location.hash.includes('offset=1'));
  await answered('done');
  const second = await rows().first().getAttribute('data-study');
  assert.notEqual(second, first, 'the next page shows another study');
  assert.equal(await page.locator('[data-test=page-prev]').isDisabled(), false);

  await search(`?id=${encodeURIComponent(common)}`);
  const count = await rows().count();
  assert.ok(count >= 2, `${common} finds both test patients`);
  // a click on a column the store orders by asks the store again (orderby): wait for that answer, then the page
  const sortBy = async (column) => {
    const response = page.waitForResponse((r) => r.url().includes('/dicomweb/studies')
      && r.url().includes(`orderby=`));
    await page.locator(`[data-test=sort-${column}]`).click();
    await response;
    await answered('done');
    return page.locator(`[data-col=${column}]`).allTextContents();
  };
  const ids = await sortBy('PatientID');
  assert.ok(ids.length >= 2);
  assert.deepEqual(ids, [...ids].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' })));
  assert.deepEqual(await sortBy('PatientID'), [...ids].reverse());

  // the store orders (QIDO orderby), so the order holds across pages: one study a page, ascending then descending
  for (const [dir, expected] of [['', [...both].sort()], ['desc', [...both].sort().reverse()]]) {
    const seen = [];
    for (const offset of ['', '1']) {
      const requested = page.waitForRequest((r) => r.url().includes('/dicomweb/studies')
        && r.url().includes(`orderby=${dir ? '-' : ''}PatientID`));
      await search(`?id=${encodeURIComponent(common)}&limit=1&sort=PatientID${dir ? '&dir=desc' : ''}`
        + `${offset ? `&offset=${offset}` : ''}`);
      await requested;
      await answered('done');
      seen.push(...await page.locator('[data-col=PatientID]').allTextContents());
    }
    assert.deepEqual(seen, expected, `pages in ${dir || 'ascending'} order of Patient ID`);
  }
});

test('a search that matches nothing says so; a malformed date shows the store\'s reason', async () => {
  await search('?name=Nobody-Has-This-Name-42');
  assert.match(await page.locator('[data-test=studies-status]').textContent(), /No study matches/);
  await search('?from=2024x'); // only an edited address can send this: the form's date fields cannot
  await answered('error');
  assert.match(await page.locator('[data-test=studies-status]').textContent(), /StudyDate.*2024x/);
  await page.locator('[data-test=message-error]').filter({ hasText: /2024x/ }).waitFor();
  await page.locator('[data-test=message-error] .dismiss').first().click();
});

test('the file browser lists a directory and deletes a file after confirmation', async () => {
  const name = `delete-me-${Date.now()}.png`;
  // A PNG (the CT rendered by the store), not a DICOM copy, which would give a seeded instance a second path.
  const png = await (await api(`${sample('CT_small.dcm').path}?render=png`)).arrayBuffer();
  const put = await api(`/images/${scratch}/${name}`, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } });
  assert.ok([201, 204].includes(put.status), `PUT: ${put.status} ${await put.text()}`);
  await page.goto(`${base}/viewer/#/browse/${scratch}`);
  const row = page.locator(`[data-test=file-row][data-name="${name}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /image\/png/);
  await page.locator('[data-test=crumbs] a').first().click(); // up to the root and back down by clicking
  await page.locator('[data-test=dir-link]').first().waitFor();
  await page.goto(`${base}/viewer/#/browse/${scratch}`);
  await row.waitFor();
  let asked = null;
  page.once('dialog', (d) => { asked = d.message(); d.accept(); });
  await row.locator('[data-test=delete]').click();
  await row.waitFor({ state: 'detached' });
  assert.match(asked, new RegExp(`Delete .*${name.replace(/\./g, '\\.')}`));
  assert.equal((await api(`/images/${scratch}/${name}`, { method: 'HEAD' })).status, 404);
  assert.deepEqual(page.problems, []);
});
