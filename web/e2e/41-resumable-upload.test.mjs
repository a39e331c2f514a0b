// A file over the resumable threshold (8 MiB) goes to the store as a tus upload: its SHA-256 computed in the page,
// 4 MiB chunks, one of them cut off on its way (the route aborts the second PATCH as a dropped connection does); the
// page asks the store for its offset (HEAD), sends on from there, and what the store holds equals the file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, newPage, login, fixtures, api } from './harness.mjs';
import { png } from './10-support.mjs';

let browser;
const run = `e2e-resumable/${Date.now().toString(36)}`;
const work = join(fixtures.work, `resumable-${Date.now().toString(36)}`);
const file = join(work, 'large-scan.png');

before(async () => {
  browser = await launch();
  mkdirSync(work, { recursive: true });
  writeFileSync(file, png(1800, 1700, true)); // ~9.2 MB: over the 8 MiB threshold, three chunks
});
after(async () => { await browser?.close(); });

test('a large file resumes after a chunk is lost on the network and is stored byte for byte', async () => {
  const page = await newPage(browser);
  const seen = [];
  let patches = 0;
  await page.route('**/uploads/**', (route) => {
    const method = route.request().method();
    seen.push(method);
    if (method === 'PATCH' && ++patches === 2) return route.abort('connectionreset');
    return route.continue();
  });
  await login(page, 'uma', '/upload');
  await page.locator('[data-test=dropzone]').waitFor();
  await page.locator('[data-test=upload-dir]').fill(run);
  await page.locator('[data-test=upload-files]').setInputFiles(file);

  const row = page.locator('[data-test=upload-row][data-path="large-scan.png"]');
  await row.waitFor();
  await page.waitForFunction((el) => !['waiting', 'sending'].includes(el.dataset.state), await row.elementHandle(),
    { timeout: 120_000 });
  assert.equal(await row.getAttribute('data-state'), 'stored', await row.innerText());

  // The lost chunk was followed by a HEAD for the offset, then by PATCHes from there.
  const lost = seen.indexOf('PATCH', seen.indexOf('PATCH') + 1);
  assert.ok(lost > 0, seen.join(' '));
  assert.equal(seen[lost + 1], 'HEAD', seen.join(' '));
  assert.ok(seen.slice(lost + 2).filter((m) => m === 'PATCH').length >= 2, seen.join(' '));

  const stored = await api(`/images/${run}/large-scan.png`);
  assert.equal(stored.status, 200);
  assert.deepEqual(Buffer.from(await stored.arrayBuffer()), readFileSync(file));
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});
