// The Audit tab against the real store: a reader's reads of a study (WADO-RS metadata) and a refused request (an
// administrator's path, 403); the administrator opens "Who opened this" from the study list and finds the reader's
// read with its door and client, then filters the trail by user and type and finds the refusal with its path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { stack } = fixtures;

/** Waits for the Audit tab's answer to the address shown. */
async function answered(page) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-test=audit-status]');
    return s?.dataset.state === 'done' && s.dataset.hash === location.hash;
  });
}

test('an administrator sees who opened a study, from its row in the list, and a reader\'s refusal', async () => {
  const metadata = await api(`/dicomweb/studies/${stack.studyUid}/metadata`, {}, 'rita');
  assert.equal(metadata.status, 200);
  await metadata.arrayBuffer();
  assert.equal((await api('/admin/users', {}, 'rita')).status, 403);

  const page = await newPage(browser);
  await login(page, 'admin', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  const row = page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`);
  await row.locator('[data-test=study-audit]').click();
  await page.waitForFunction(() => location.hash.startsWith('#/admin/audit?'));
  await answered(page);
  assert.equal(await page.locator('[data-test=audit-study]').inputValue(), stack.studyUid);
  // the newest of the reader's reads over DICOMweb: the window the search closed, with the metadata just read
  const read = page.locator('[data-test=audit-row][data-user=rita][data-type=read][data-door=dicomweb]').first();
  assert.match(await read.locator('[data-test=audit-row-description]').innerText(), /\d+ instances read over dicomweb/);
  assert.ok((await read.innerText()).includes(stack.patientId), 'the patient');
  await screenshot(page, 'audit-study');

  // the whole trail of one user, refusals included
  await page.locator('[data-test=audit-study]').fill('');
  await page.locator('[data-test=audit-user]').fill('rita');
  await page.locator('[data-test=audit-search]').click();
  await page.waitForFunction(() => location.hash.includes('user=rita'));
  await answered(page);
  const refused = page.locator('[data-test=audit-row][data-user=rita][data-outcome="4"]');
  assert.ok(await refused.count() >= 1, 'the refusal');
  assert.match(await refused.first().locator('[data-test=audit-row-description]').innerText(),
    /GET \/admin\/users refused/);
  const users = await page.locator('[data-test=audit-row]').evaluateAll((rows) => rows.map((r) => r.dataset.user));
  assert.deepEqual([...new Set(users)], ['rita']);

  await page.locator('[data-test=audit-type]').selectOption('query');
  await page.locator('[data-test=audit-search]').click();
  await page.waitForFunction(() => location.hash.includes('type=query'));
  await answered(page);
  assert.equal(await page.locator('[data-test=audit-row]:not([data-type=query])').count(), 0);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.csp, []);
  assert.deepEqual(page.foreign, []);
});

test('a reader has no Audit tab and no "Who opened this"', async () => {
  const page = await newPage(browser);
  await login(page, 'rita', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  await page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`).waitFor();
  assert.equal(await page.locator('[data-test=study-audit]').count(), 0);
  await page.goto(`${base}/viewer/#/admin/audit`);
  assert.equal(await page.locator('[data-test=admin-tab-audit]').count(), 0);
});
