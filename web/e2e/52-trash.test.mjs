// Deleting studies and the trash against the real store: a study deleted from the study list with a reason (gone
// from the list and the store's queries, in the Trash with its reason), restored from the Trash; purged by an
// administrator; a reader offered neither; the store's guard (its 409 in the dialog, "Delete anyway" for an
// administrator only, then Undo); the Changes page showing a stored and a deleted instance, newest first.
// The IT starts the store with a guard that holds deletions of 50 or more instances that are over half the store:
// the 100-image study only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { trash } = fixtures;

async function as(user, route) {
  const page = await newPage(browser);
  await login(page, user, route);
  return page;
}

/** Shows the study list searched by patient ID and waits for that answer. */
async function studies(page, patientId) {
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(patientId)}`);
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-test=studies-status]');
    return s?.dataset.hash === location.hash && s.dataset.state === 'done';
  });
}

async function held(studyUid) {
  const r = await api(`/dicomweb/studies?StudyInstanceUID=${studyUid}&includefield=NumberOfStudyRelatedInstances`,
    { headers: { accept: 'application/dicom+json' } });
  const found = r.status === 204 ? [] : await r.json();
  return found.length ? found[0]['00201208'].Value[0] : 0;
}

async function deletions() {
  return (await api('/trash')).json();
}

/** Stores the one-instance study the IT prepared for the change feed (again: each time a new file). */
async function storeChangesFile() {
  const put = await api('/images/e2e/changes/1.dcm', { method: 'PUT', body: readFileSync(trash.changesFile) });
  assert.ok([201, 204].includes(put.status), `stored: ${put.status} ${await put.text()}`);
}

function clean(page) {
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.csp, []);
  assert.deepEqual(page.foreign, []);
}

test('an uploader deletes a study from the list with a reason; it is in the Trash; restored, it is back', async () => {
  const page = await as('uma', '/studies');
  await studies(page, trash.patientId);
  const row = page.locator(`[data-test=study-row][data-study="${trash.studyUid}"]`);
  await row.locator('[data-test=study-delete]').click();
  const dialog = page.locator('[data-test=delete-dialog]');
  await dialog.waitFor();
  // the dialog names the study: patient ID, date, description, instances
  const summary = await dialog.locator('[data-test=delete-summary]').innerText();
  for (const s of [trash.patientId, '2024-01-04', trash.description, `${trash.count} instances in 1 series`]) {
    assert.ok(summary.includes(s), `${s} in: ${summary}`);
  }
  assert.equal(await dialog.locator('[data-test=delete-force]').isVisible(), false);
  const reason = 'e2e: wrong patient';
  await dialog.locator('[data-test=delete-reason]').fill(reason);
  await dialog.locator('[data-test=delete-ok]').click();
  await dialog.waitFor({ state: 'detached' });
  await row.waitFor({ state: 'detached' });
  await page.locator('[data-test=delete-notice] [data-test=delete-undo]').waitFor();
  assert.equal(await held(trash.studyUid), 0, 'gone from the store\'s queries');
  await studies(page, trash.patientId);
  assert.equal(await page.locator('[data-test=study-row]').count(), 0, 'gone from the list searched again');

  // the Trash (an uploader's own link): the deletion, its reason, who; Restore but no Purge for an uploader
  await page.locator('[data-test=nav-trash]').click();
  await page.locator('[data-test=trash-list][data-state=done]').waitFor();
  const entry = page.locator(`[data-test=trash-row][data-study="${trash.studyUid}"]`);
  assert.equal(await entry.locator('[data-test=trash-reason]').innerText(), reason);
  assert.equal(await entry.locator('[data-test=trash-instances]').innerText(), String(trash.count));
  assert.equal(await entry.locator('[data-test=trash-by]').innerText(), 'uma');
  assert.equal(await entry.locator('[data-test=trash-purge]').count(), 0);
  assert.deepEqual(await page.locator('[data-test^=admin-tab-]').evaluateAll((a) => a.map((x) => x.dataset.test)),
    ['admin-tab-trash'], 'an uploader sees the Trash tab only');
  await screenshot(page, 'admin-trash');

  await entry.locator('[data-test=trash-restore]').click();
  await entry.waitFor({ state: 'detached' });
  await page.locator('[data-test=message-ok]', { hasText: `${trash.count} instances restored` }).waitFor();
  // nothing else was deleted by the tests before: the trash is empty again, and says so
  await page.locator('[data-test=trash-empty]').waitFor();
  assert.equal(await held(trash.studyUid), trash.count);
  await studies(page, trash.patientId);
  assert.equal(await page.locator(`[data-test=study-row][data-study="${trash.studyUid}"]`).count(), 1);
  clean(page);
  await page.context().close();
});

test('an administrator purges a deletion after confirming: gone from the Trash; errors in the store\'s words', async () => {
  const deleted = await (await api(`/dicomweb/studies/${trash.studyUid}?reason=e2e-purge`, { method: 'DELETE' })).json();
  const page = await as('admin', '/admin/trash');
  await page.locator('[data-test=trash-list][data-state=done]').waitFor();
  const entry = page.locator(`[data-test=trash-row][data-trash="${deleted.trashId}"]`);
  assert.equal(await entry.locator('[data-test=trash-reason]').innerText(), 'e2e-purge');
  assert.equal(await entry.locator('[data-test=trash-by]').innerText(), 'admin');

  // its files, on demand
  await entry.locator('details.files summary').click();
  await entry.locator('details.files li').first().waitFor();
  assert.equal(await entry.locator('details.files li').count(), trash.count);

  // Cancel keeps it
  await entry.locator('[data-test=trash-purge]').click();
  await page.locator('[data-test=confirm-cancel]').click();
  assert.equal((await api(`/trash/${deleted.trashId}`)).status, 200);

  await entry.locator('[data-test=trash-purge]').click();
  assert.match(await page.locator('[data-test=confirm-dialog]').innerText(), /cannot be restored/);
  await page.locator('[data-test=confirm-ok]').click();
  await entry.waitFor({ state: 'detached' });
  assert.equal((await api(`/trash/${deleted.trashId}`)).status, 404);
  await page.locator('[data-test=message-ok]', { hasText: `${trash.count} files purged` }).waitFor();

  // A deletion purged by someone else while the page showed it: Restore shows the store's reason in its row
  await storeChangesFile();
  const other = await (await api(`/dicomweb/studies/${trash.changesStudyUid}`, { method: 'DELETE' })).json();
  await page.locator('[data-test=trash-refresh]').click();
  const gone = page.locator(`[data-test=trash-row][data-trash="${other.trashId}"]`);
  await gone.waitFor();
  assert.equal((await api(`/trash/${other.trashId}`, { method: 'DELETE' })).status, 200);
  await gone.locator('[data-test=trash-restore]').click();
  await page.waitForFunction((id) => document.querySelector(`[data-test=trash-row][data-trash="${id}"]`
    + ' [data-test=trash-row-problem]')?.textContent, other.trashId);
  assert.match(await gone.locator('[data-test=trash-row-problem]').innerText(),
    new RegExp(`^Not found: no deletion ${other.trashId} in the trash`));
  clean(page);
  await page.context().close();
});

test('a reader sees no Delete in the study list and no Trash, and is told why at its address', async () => {
  const page = await as('rita', '/studies');
  await studies(page, fixtures.mixed.patientId);
  assert.equal(await page.locator('[data-test=study-row]').count(), 1);
  assert.equal(await page.locator('[data-test=study-delete]').count(), 0);
  assert.equal(await page.locator('[data-test=nav-trash]').count(), 0);
  await page.goto(`${base}/viewer/#/admin/trash`);
  await page.locator('[data-test=forbidden]').waitFor();
  assert.match(await page.locator('[data-test=forbidden]').innerText(), /\(reader\) may not open this page; it needs the uploader role/);
  clean(page);
  await page.context().close();
});

test('the guard: its 409 in the dialog; an uploader cannot force; an administrator deletes anyway, then undoes it', async () => {
  const { stack } = fixtures;
  const uploader = await as('uma', '/studies');
  await studies(uploader, stack.patientId);
  await uploader.locator(`[data-test=study-row][data-study="${stack.studyUid}"] [data-test=study-delete]`).click();
  let dialog = uploader.locator('[data-test=delete-dialog]');
  assert.match(await dialog.locator('[data-test=delete-instances]').innerText(), new RegExp(`${stack.count} instances`));
  await dialog.locator('[data-test=delete-ok]').click();
  await uploader.waitForFunction(() => document.querySelector('[data-test=delete-problem]')?.textContent);
  const problem = await dialog.locator('[data-test=delete-problem]').innerText();
  assert.match(problem, /^Conflict: .*medjava\.delete\.guard-share \(50%\).*force=true/s);
  assert.match(problem, /Only an administrator can delete this much at once/);
  assert.equal(await dialog.locator('[data-test=delete-force]').isVisible(), false);
  await dialog.locator('[data-test=delete-cancel]').click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await held(stack.studyUid), stack.count);
  clean(uploader);
  await uploader.context().close();

  const page = await as('admin', '/studies');
  await studies(page, stack.patientId);
  const row = page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`);
  await row.locator('[data-test=study-delete]').click();
  dialog = page.locator('[data-test=delete-dialog]');
  await dialog.locator('[data-test=delete-reason]').fill('e2e: the guard');
  await dialog.locator('[data-test=delete-ok]').click();
  await dialog.locator('[data-test=delete-force]').waitFor();
  assert.match(await dialog.locator('[data-test=delete-problem]').innerText(), /force=true/);
  assert.equal(await dialog.locator('[data-test=delete-ok]').isVisible(), false);
  await screenshot(page, 'delete-guard');
  await dialog.locator('[data-test=delete-force]').click();
  await dialog.waitFor({ state: 'detached' });
  await row.waitFor({ state: 'detached' });
  assert.equal(await held(stack.studyUid), 0);
  assert.equal((await deletions()).find((d) => d.StudyInstanceUID === stack.studyUid)?.instances, stack.count);

  // Undo, from the notice: the row is back where it was, the study whole in the store, the trash without it
  await page.locator('[data-test=delete-notice] [data-test=delete-undo]').click();
  await row.waitFor();
  await page.locator('[data-test=message-ok]', { hasText: `${stack.count} instances restored` }).waitFor();
  assert.equal(await held(stack.studyUid), stack.count);
  assert.equal((await deletions()).some((d) => d.StudyInstanceUID === stack.studyUid), false);
  clean(page);
  await page.context().close();
});

test('the Changes page lists an instance stored and then deleted, newest first, with the deletion\'s trash id', async () => {
  await storeChangesFile();
  const deleted = await (await api(`/dicomweb/studies/${trash.changesStudyUid}?reason=e2e-changes`,
    { method: 'DELETE' })).json();

  const page = await as('admin', '/admin/changes');
  await page.locator('[data-test=changes-status][data-state=done]').waitFor();
  const rows = page.locator(`[data-test=change-row][data-study="${trash.changesStudyUid}"]`);
  // (the test before stored, deleted and purged it once already: further down)
  assert.deepEqual((await rows.evaluateAll((r) => r.map((x) => x.dataset.kind))).slice(0, 2), ['deleted', 'created']);
  assert.equal(await rows.first().locator('[data-test=change-trash]').innerText(), deleted.trashId);
  assert.match(await rows.last().innerText(), /e2e\/changes\/1\.dcm/);
  const seqs = await page.locator('[data-test=change-row]').evaluateAll((r) => r.map((x) => Number(x.dataset.seq)));
  assert.deepEqual(seqs, [...seqs].sort((a, b) => b - a), 'newest first');
  // the latest window ends with the feed's last entry
  const feed = await (await api(`/changes?since=${seqs[0]}&limit=1`)).json();
  assert.deepEqual(feed.changes, []);
  await screenshot(page, 'admin-changes');

  // Follow: a change made now appears without a reload
  await page.locator('[data-test=changes-follow]').check();
  assert.equal((await api(`/trash/${deleted.trashId}/restore`, { method: 'POST' })).status, 200);
  await rows.first().and(page.locator('[data-kind=restored]')).waitFor({ timeout: 15_000 });
  clean(page);
  await page.context().close();
});
