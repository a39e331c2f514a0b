// The API browser at /api/: Swagger UI from the store's own origin on the store's OpenAPI document. Open without a
// login; its endpoint groups are the document's tags; after a login on the viewer, "Try it out" on GET
// /index/studies runs with the session cookie and shows the store's JSON — and no request leaves the origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/**
 * A page that also records console errors (a Content-Security-Policy violation is one; failed loads are left to
 * the answers' own checks) and any failure to load the API browser or the document.
 */
async function apiPage() {
  const page = await newPage(browser);
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) page.problems.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() >= 400 && (path.startsWith('/api/') || path === '/openapi')) page.problems.push(`${r.status()} ${path}`);
  });
  return page;
}

const TAGS = ['images', 'index', 'DICOMweb', 'jobs', 'filters', 'admin', 'sessions', 'PACS'];

test('the API browser opens without a login and shows the endpoint groups', async () => {
  const page = await apiPage();
  const response = await page.goto(`${base}/api/`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-security-policy'], /default-src 'self'/);
  await page.locator('.opblock-tag-section').first().waitFor({ timeout: 30_000 });
  const tags = await page.locator('.opblock-tag').evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')));
  for (const tag of TAGS) assert.ok(tags.includes(tag), `tag ${tag} among ${tags}`);
  assert.match(await page.locator('.info .title').textContent(), /MedJava image store/);
  assert.equal(await page.locator('.validator-badge, img[src*="validator"]').count(), 0, 'no validator badge');
  assert.deepEqual(page.foreign, []);
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'api-browser');
});

test('Try it out on GET /index/studies answers 200 with the studies, on the session of a login', async () => {
  const page = await apiPage();
  await login(page, 'rita');
  await page.goto(`${base}/api/#/index/studies`);
  const operation = page.locator('#operations-index-studies');
  await operation.waitFor({ timeout: 30_000 });
  if (!(await operation.locator('.opblock-body').count())) await operation.locator('.opblock-summary').first().click();
  await operation.locator('.try-out__btn').click();
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/index/studies');
  await operation.locator('.execute').click();
  const r = await answer;
  assert.equal(r.status(), 200);
  assert.match(r.headers()['content-type'], /application\/json/);
  const studies = await r.json();
  assert.ok(Array.isArray(studies) && studies.length > 0, 'the seeded studies');
  assert.ok(studies.every((s) => s.StudyInstanceUID), 'each with its StudyInstanceUID');
  await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor();
  assert.match(await operation.locator('.live-responses-table tbody .response-col_status').first().textContent(), /200/);
  assert.match(await operation.locator('.live-responses-table tbody .highlight-code').first().textContent(),
    /StudyInstanceUID/);
  assert.deepEqual(page.foreign, []);
  assert.deepEqual(page.problems, []);
  await screenshot(page, 'api-try-it-out');
});

test('without a login, Try it out gets the store\'s 401 (no browser prompt)', async () => {
  const page = await apiPage();
  await page.goto(`${base}/api/#/index/patients`);
  const operation = page.locator('#operations-index-patients');
  await operation.waitFor({ timeout: 30_000 });
  if (!(await operation.locator('.opblock-body').count())) await operation.locator('.opblock-summary').first().click();
  await operation.locator('.try-out__btn').click();
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/index/patients');
  await operation.locator('.execute').click();
  const r = await answer;
  assert.equal(r.status(), 401);
  assert.doesNotMatch(r.headers()['www-authenticate'] ?? '', /^Basic/, 'no Basic challenge for a page\'s script');
  assert.deepEqual(page.foreign, []);
  assert.deepEqual(page.problems, []);
});
