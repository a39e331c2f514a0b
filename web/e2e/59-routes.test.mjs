// Routing in the console (administrators): a rule made in the dialog (the store's refusals shown in its words: a rule
// that matches everything, with "Make it anyway" offered, and an unknown keyword), edited, disabled and enabled again
// without losing its credentials, run on the IT's 2-image study by STOW-RS to the store itself (which holds the
// instances already: sent, with the receiver's note in the study's history); a rule to a closed port, whose tasks wait
// for their retry with the error, then are dead letters; Retry sends one again, Remove drops the other; the rules
// removed after a confirmation. Neither uploaders nor readers see or open the tab. The IT retries after 4 s and gives
// up after the second try.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { launch, newPage, login, base, fixtures, api, basic, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { routes } = fixtures;
const rules = async () => (await api('/routes/rules')).json();
const history = async () => (await api(`/routes/history?study=${routes.studyUid}`)).json();

async function routesTab() {
  const page = await newPage(browser);
  await login(page, 'admin', '/admin/routes');
  await page.locator('[data-test=routes-rules][data-state=done]').waitFor();
  return page;
}

/** A local port nothing listens on. */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(what, condition, timeout = 30_000) {
  const end = Date.now() + timeout;
  while (!await condition()) {
    if (Date.now() > end) throw new Error(`not within ${timeout} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Fills the rule dialog: a STOW-RS destination and the first condition. */
async function fillRule(dialog, { name, key = '', pattern = '', url, auth = '' }) {
  if (name !== undefined) await dialog.locator('[data-test=route-name]').fill(name);
  await dialog.locator('[data-test=route-key]').first().fill(key);
  await dialog.locator('[data-test=route-pattern]').first().fill(pattern);
  await dialog.locator('[data-test=route-kind]').selectOption('stow');
  await dialog.locator('[data-test=route-url]').fill(url);
  await dialog.locator('[data-test=route-auth]').fill(auth);
}

async function runOn(page, row, study) {
  await row.locator('[data-test=route-run]').click();
  const dialog = page.locator('[data-test=route-run-dialog]');
  await dialog.locator('[data-test=route-run-study]').fill(study);
  await dialog.locator('[data-test=route-run-ok]').click();
  await dialog.waitFor({ state: 'detached' });
  return page.locator('[data-test=route-run-notice]').last().innerText();
}

async function removeRule(page, name) {
  const row = page.locator(`[data-test=route-rule][data-name="${name}"]`);
  await row.locator('[data-test=route-delete]').click();
  await page.locator('[data-test=confirm-cancel]').click();
  assert.ok((await rules()).some((r) => r.name === name), 'Cancel keeps the rule');
  await row.locator('[data-test=route-delete]').click();
  await page.locator('[data-test=confirm-ok]').click();
  await row.waitFor({ state: 'detached' });
  assert.ok(!(await rules()).some((r) => r.name === name));
}

function clean(page) {
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.csp, []);
  assert.deepEqual(page.foreign, []);
}

test('a rule made in the dialog, edited, disabled and enabled, sends a study by STOW-RS; its history says so', async () => {
  assert.deepEqual(await rules(), []);
  const page = await routesTab();
  await page.locator('[data-test=routes-empty]').waitFor();
  await page.locator('[data-test=route-new]').click();
  const dialog = page.locator('[data-test=route-dialog]');
  const problem = dialog.locator('[data-test=route-form-problem]');
  const stow = `${base}/dicomweb/studies`;

  // no condition: the store refuses a rule that takes everything, and offers to make it anyway
  await fillRule(dialog, { name: 'to-itself', url: stow, auth: basic('admin') });
  assert.equal(await dialog.locator('[data-test=route-ae]').isVisible(), false, 'a STOW-RS rule names no AE');
  const option = dialog.locator('[data-test=route-option-retain-patient-characteristics]');
  assert.equal(await option.isVisible(), false, 'options only when de-identifying');
  await dialog.locator('[data-test=route-deidentify]').check();
  assert.equal(await option.isVisible(), true);
  await dialog.locator('[data-test=route-deidentify]').uncheck(); // de-identified, the store would keep a new study
  await dialog.locator('[data-test=route-save]').click();
  await dialog.locator('[data-test=route-confirm]').waitFor();
  assert.match(await problem.innerText(), /^The store refused the request: the rule matches every instance .*confirm=true/);
  await screenshot(page, 'admin-routes-everything');
  // a keyword the store does not know
  await fillRule(dialog, { key: 'NoSuchKeyword', pattern: 'x', url: stow, auth: basic('admin') });
  await dialog.locator('[data-test=route-save]').click();
  await page.waitForFunction(() => /NoSuchKeyword/.test(document.querySelector('[data-test=route-form-problem]').textContent));
  assert.match(await problem.innerText(), /^The store refused the request: match: NoSuchKeyword is neither a DICOM keyword nor SourceAE/);
  assert.deepEqual(await rules(), [], 'nothing made');

  await fillRule(dialog, { key: 'PatientID', pattern: 'ROUTES-E2E', url: stow, auth: basic('admin') });
  await dialog.locator('[data-test=route-save]').click();
  await dialog.waitFor({ state: 'detached' });
  const row = page.locator('[data-test=route-rule][data-name=to-itself]');
  await row.waitFor();
  assert.equal(await row.locator('[data-test=route-match]').innerText(), 'PatientID = ROUTES-E2E');
  assert.equal(await row.locator('[data-test=route-destination]').innerText(), `STOW-RS to ${stow}\nwith credentials`);
  assert.equal(await row.locator('[data-test=route-options]').innerText(), 'as stored');
  let [made] = await rules();
  assert.deepEqual(made.destination, { kind: 'stow', url: stow, auth: '(set)' });
  assert.equal(made.enabled, true);

  // edited: the credentials field stays empty (the store never shows them) and they are kept
  await row.locator('[data-test=route-edit]').click();
  assert.equal(await dialog.locator('[data-test=route-name]').isDisabled(), true);
  assert.equal(await dialog.locator('[data-test=route-auth]').inputValue(), '');
  assert.equal(await dialog.locator('[data-test=route-url]').inputValue(), stow);
  await dialog.locator('[data-test=route-pattern]').first().fill('ROUTES-*');
  await dialog.locator('[data-test=route-transcode]').selectOption('1.2.840.10008.1.2.1');
  await dialog.locator('[data-test=route-save]').click();
  await dialog.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('[data-test=route-rule][data-name=to-itself] [data-test=route-match]')
    ?.textContent === 'PatientID = ROUTES-*');
  assert.equal(await row.locator('[data-test=route-options]').innerText(), 'transcoded to Explicit VR Little Endian');

  // disabled and enabled again from the list
  await row.locator('[data-test=route-toggle]').click();
  await page.locator('[data-test=route-rule][data-name=to-itself][data-enabled=false]').waitFor();
  assert.equal(await row.locator('[data-test=route-enabled]').innerText(), 'no');
  [made] = await rules();
  assert.equal(made.enabled, false);
  await row.locator('[data-test=route-toggle]').click();
  await page.locator('[data-test=route-rule][data-name=to-itself][data-enabled=true]').waitFor();
  [made] = await rules();
  assert.equal(made.enabled, true);
  assert.equal(made.destination.auth, '(set)');
  await screenshot(page, 'admin-routes-rules');

  // run on the study: sent to the store itself, which holds the instances (had the credentials been lost: 401, failed)
  assert.equal(await runOn(page, row, routes.studyUid),
    `to-itself: ${routes.count} instances of study ${routes.studyUid} queued.`);
  await until('the study sent', async () => {
    const h = await history();
    return h.length === routes.count && h.every((t) => t.state === 'sent');
  });
  await page.locator('[data-test=routes-history-study]').fill(routes.studyUid);
  await page.locator('[data-test=routes-history-show]').click();
  await page.waitForFunction(({ uid, n }) => document.querySelector('[data-test=routes-history-status]')?.textContent
    === `${n} tasks of study ${uid}, newest first.`, { uid: routes.studyUid, n: routes.count });
  const sent = page.locator('[data-test=routes-history-table] [data-test=route-task]');
  assert.equal(await sent.count(), routes.count);
  const ids = [];
  for (let i = 0; i < routes.count; i++) {
    const t = sent.nth(i);
    assert.equal(await t.getAttribute('data-state'), 'sent');
    assert.equal(await t.getAttribute('data-study'), routes.studyUid);
    assert.equal(await t.locator('[data-test=route-task-state]').innerText(), 'sent');
    assert.equal(await t.locator('[data-test=route-task-destination]').innerText(), `stow:${stow}`);
    assert.match(await t.locator('[data-test=route-task-error]').innerText(),
      /^(the receiver held it already \(STOW-RS FailureReason 0111H\))?$/);
    ids.push(Number(await t.getAttribute('data-task')));
  }
  assert.ok(ids[0] > ids[1], 'newest first');
  assert.equal(await page.locator('[data-test=routes-pending-empty]').count(), 1);
  await screenshot(page, 'admin-routes-history');
  clean(page);
  await page.context().close();
});

test('a destination that refuses: the tasks wait with the error, then are dead letters; Retry, Remove; rules removed', async () => {
  const page = await routesTab();
  const port = await closedPort();
  const url = `http://127.0.0.1:${port}/dicomweb/studies`;
  await page.locator('[data-test=route-new]').click();
  const dialog = page.locator('[data-test=route-dialog]');
  await fillRule(dialog, { name: 'to-nowhere', key: 'PatientID', pattern: 'ROUTES-E2E', url });
  await dialog.locator('[data-test=route-save]').click();
  await dialog.waitFor({ state: 'detached' });
  const row = page.locator('[data-test=route-rule][data-name=to-nowhere]');
  assert.equal(await row.locator('[data-test=route-destination]').innerText(), `STOW-RS to ${url}`);

  // a study the store does not hold: said in the dialog
  await row.locator('[data-test=route-run]').click();
  const run = page.locator('[data-test=route-run-dialog]');
  await run.locator('[data-test=route-run-study]').fill('1.2.3.4.5.6');
  await run.locator('[data-test=route-run-ok]').click();
  await page.waitForFunction(() => document.querySelector('[data-test=route-run-problem]')?.textContent);
  assert.equal(await run.locator('[data-test=route-run-problem]').innerText(), 'Not found: the store holds no study 1.2.3.4.5.6');
  await run.locator('[data-test=route-run-cancel]').click();

  assert.equal(await runOn(page, row, routes.studyUid),
    `to-nowhere: ${routes.count} instances of study ${routes.studyUid} queued.`);
  // the first try failed: waiting for the next with the error (the page asks again every 2 s; the wait is 4 s)
  const waiting = page.locator('[data-test=routes-pending-table] [data-test=route-task][data-state=failed]');
  await waiting.first().waitFor();
  const reason = new RegExp(`^cannot reach ${url.replace(/[.]/g, '\\.')}: java\\.net\\.ConnectException`);
  assert.match(await waiting.first().locator('[data-test=route-task-error]').innerText(), reason);
  assert.equal(await waiting.first().locator('[data-test=route-task-tries]').innerText(), '1');
  assert.equal(await waiting.first().locator('[data-test=route-task-state]').innerText(), 'to retry');
  assert.notEqual(await waiting.first().locator('[data-test=route-task-next]').innerText(), '');
  assert.equal(await waiting.first().getAttribute('data-study'), routes.studyUid);
  await screenshot(page, 'admin-routes-queue');

  // the second try failed too: dead letters
  const dead = page.locator('[data-test=routes-dead-table] [data-test=route-task]');
  await page.waitForFunction((n) => document.querySelectorAll('[data-test=routes-dead-table] [data-test=route-task]').length === n,
    routes.count);
  for (let i = 0; i < routes.count; i++) {
    assert.equal(await dead.nth(i).locator('[data-test=route-task-tries]').innerText(), '2');
    assert.match(await dead.nth(i).locator('[data-test=route-task-error]').innerText(), reason);
    assert.equal(await dead.nth(i).locator('[data-test=route-task-destination]').innerText(), `stow:${url}`);
  }
  await page.locator('[data-test=routes-pending-empty]').waitFor();
  assert.match(await page.locator('[data-test=routes-counts]').innerText(), /0 queued · 0 sending · 0 to retry · 2 dead · \d+ sent/);
  await screenshot(page, 'admin-routes-dead');

  // Retry: back in the queue with a fresh count of tries, then dead again after two more
  const [retried, dropped] = [Number(await dead.nth(0).getAttribute('data-task')),
    Number(await dead.nth(1).getAttribute('data-task'))];
  await dead.nth(0).locator('[data-test=route-task-retry]').click();
  await page.locator(`[data-test=routes-pending-table] [data-task="${retried}"]`).waitFor();
  await page.waitForFunction((id) => document.querySelector(`[data-test=routes-dead-table] [data-task="${id}"]`
    + ' [data-test=route-task-tries]')?.textContent === '2 (4 in all)', retried);

  // Remove: after a confirmation, gone from the list and the store
  await page.locator(`[data-test=routes-dead-table] [data-task="${dropped}"] [data-test=route-task-delete]`).click();
  await page.locator('[data-test=confirm-ok]').click();
  await page.locator(`[data-test=routes-dead-table] [data-task="${dropped}"]`).waitFor({ state: 'detached' });
  assert.equal((await api(`/routes/tasks/${dropped}`)).status, 404);
  assert.equal((await (await api(`/routes/tasks/${retried}`)).json()).state, 'dead');

  await removeRule(page, 'to-nowhere');
  await removeRule(page, 'to-itself');
  await page.locator('[data-test=routes-empty]').waitFor();
  assert.deepEqual(await rules(), []);
  clean(page);
  await page.context().close();
});

test('an uploader and a reader neither see nor open the Routes tab', async () => {
  const admin = await routesTab();
  assert.equal(await admin.locator('[data-test=admin-tab-routes]').innerText(), 'Routes');
  await admin.context().close();
  const uploader = await newPage(browser);
  await login(uploader, 'uma', '/admin/trash');
  await uploader.locator('[data-test=admin-tab-trash]').waitFor();
  assert.equal(await uploader.locator('[data-test=admin-tab-routes]').count(), 0);
  await uploader.context().close();
  for (const [user, role] of [['uma', 'uploader'], ['rita', 'reader']]) {
    const page = await newPage(browser);
    await login(page, user, '/admin/routes');
    await page.locator('[data-test=forbidden]').waitFor();
    assert.match(await page.locator('[data-test=forbidden]').innerText(),
      new RegExp(`\\(${role}\\) may not open this page; it needs the admin role`));
    assert.equal(await page.locator('[data-test=routes-rules]').count(), 0, user);
    assert.equal((await api('/routes/rules', {}, user)).status, 403);
    await page.context().close();
  }
});
