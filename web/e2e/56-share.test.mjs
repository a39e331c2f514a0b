// Share links from the study list: an uploader makes a link with Share…; a browser without an account opens it and
// lands in the viewer on that study, read only (the bar says so, the study list and every other page lead back to
// the study, other studies are not found); the uploader revokes the link and the open session ends with it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { stack, mixed } = fixtures;

test('a share link opens one study read only without an account, until it is revoked', async () => {
  const page = await newPage(browser);
  await login(page, 'uma', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  await page.locator(`[data-test=study-row][data-study="${stack.studyUid}"] [data-test=study-share]`).click();
  await page.waitForFunction(() => document.querySelector('[data-test=share-list]')?.dataset.state === 'done');
  await page.locator('[data-test=share-hours]').selectOption('24');
  await page.locator('[data-test=share-note]').fill('second opinion');
  await page.locator('[data-test=share-create]').click();
  const url = await page.locator('[data-test=share-url]').inputValue();
  assert.match(url, /\/share\/[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{22}$/);
  await page.locator('[data-test=share][data-live=true]').first().waitFor();
  await screenshot(page, 'share-dialog');

  // someone without an account: the viewer on the study, and nowhere else
  const guest = await newPage(browser);
  await guest.goto(url);
  await guest.locator('[data-test=shared-banner]').waitFor();
  assert.match(guest.url(), new RegExp(`#/view\\?study=${stack.studyUid.replaceAll('.', '\\.')}`));
  assert.match(await guest.locator('[data-test=shared-banner]').innerText(), /read only/);
  await guest.locator('[data-test=viewport] canvas').first().waitFor(); // the filter result layer is a canvas too
  assert.equal(await guest.locator('[data-test=nav-studies]').count(), 0);
  await screenshot(guest, 'share-guest');
  await guest.goto(`${base}/viewer/#/studies`);
  await guest.waitForFunction((uid) => location.hash === `#/view?study=${uid}`, stack.studyUid);
  const other = await guest.evaluate(async (uid) => (await fetch(`/dicomweb/studies/${uid}/metadata`)).status,
    mixed.studyUid);
  assert.equal(other, 404, 'another study is not found through the link');
  const studies = await guest.evaluate(async () => (await (await fetch('/dicomweb/studies')).json()).length);
  assert.equal(studies, 1);

  // revoked: the open session ends at its next request
  await page.locator('[data-test=share][data-live=true] [data-test=share-revoke]').first().click();
  await page.waitForFunction(() => !document.querySelector('[data-test=share][data-live=true]'));
  const after = await guest.evaluate(async () => (await fetch('/dicomweb/studies')).status);
  assert.equal(after, 401);
  const again = await guest.goto(url);
  assert.equal(again.status(), 410);
  assert.match(await guest.locator('h1').innerText(), /does not open anything/);
  assert.deepEqual(page.problems, []);
});

test('a reader gets no Share button', async () => {
  const page = await newPage(browser);
  await login(page, 'rita', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  await page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`).waitFor();
  assert.equal(await page.locator('[data-test=study-share]').count(), 0);
});
