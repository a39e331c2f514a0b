// Logging in and out of the viewer, roles, and a session that ends while images are loading: the user logs in again
// and is back on the same image.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures } from './harness.mjs';
import { openView, seriesOf, overlay, waitLit } from './10-support.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a wrong password is refused with a readable message', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/viewer/#/login`);
  await page.locator('[data-test=login-user]').fill('admin');
  await page.locator('[data-test=login-password]').fill('not-the-password');
  await page.locator('[data-test=login-submit]').click();
  await page.locator('[data-test=login-problem]').filter({ hasText: /wrong user name or password/i }).waitFor();
  assert.equal(await page.locator('[data-test=session-user]').count(), 0);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('login shows who is logged in and the sections of the role; logout ends the session', async () => {
  const page = await newPage(browser);
  await login(page, 'admin');
  assert.match(await page.locator('[data-test=session-user]').textContent(), /admin/);
  await page.locator('[data-test=nav-admin]').waitFor();
  await page.locator('[data-test=logout]').click();
  await page.locator('[data-test=login-user]').waitFor();
  await page.goto(`${base}/viewer/#/studies`);
  await page.locator('[data-test=login-user]').waitFor(); // not logged in any more: the login page again
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a reader sees neither upload nor administration', { skip: !fixtures.users.rita && 'no reader account in the fixtures' }, async () => {
  const page = await newPage(browser);
  await login(page, 'rita');
  await page.locator('[data-test=nav-studies]').waitFor();
  assert.equal(await page.locator('[data-test=nav-upload]').count(), 0);
  assert.equal(await page.locator('[data-test=nav-admin]').count(), 0);
  await page.goto(`${base}/viewer/#/browse/`);
  await page.locator('[data-test=files]').waitFor();
  assert.equal(await page.locator('[data-test=delete]').count(), 0, 'a reader is offered no Delete');
  await page.context().close();
});

test('a session that ends while the viewer loads images: login, then back on the same frame', async (t) => {
  if ((await fetch(`${base}/dicomweb/studies?limit=1`)).status !== 401) {
    t.skip('this store lets anonymous users read: an ended session gives no 401 to follow');
    return;
  }
  const page = await newPage(browser);
  await login(page, 'admin');
  await openView(page, seriesOf('examples_ybr_color.dcm'));
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => /Frame 5 \/ 30/.test(document.querySelector('[data-test=overlay-bl]')?.textContent ?? ''));
  await page.waitForFunction(() => location.hash.includes('frame=5')); // the address follows the image
  // The session ends (cookie gone); the next frame the loader fetches is refused with 401. The filter panel's
  // polling is stopped first, so only the image loader's own request can lead to the login page.
  await page.evaluate(() => window.__medjavaViewer.panel.destroy());
  await page.context().clearCookies();
  await page.evaluate(() => window.__medjavaViewer.vp.core.cache.purgeCache());
  await page.keyboard.press('ArrowDown');
  await page.locator('[data-test=login-problem]').filter({ hasText: /session ended/i }).waitFor({ timeout: 20_000 });
  assert.match(decodeURIComponent(page.url()), /next=\/view\?.*frame=5/);
  await page.locator('[data-test=login-user]').fill('admin');
  await page.locator('[data-test=login-password]').fill(fixtures.users.admin.password);
  await page.locator('[data-test=login-submit]').click();
  await page.locator('[data-test=viewer-message][data-state=shown]').waitFor({ state: 'attached', timeout: 60_000 });
  await waitLit(page);
  assert.match(await overlay(page, 'overlay-bl'), /Frame 5 \/ 30/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
