// Corrections from the browser: an uploader corrects a study's PatientName and AccessionNumber from its row (the dialog
// prefilled with the store's values, only the changed ones sent, the job followed to its end): the row shows the new
// values, QIDO-RS agrees, and the Trash lists the previous version, whose Restore undoes the correction (the corrected
// version then waits in the trash in its turn); a value the store refuses is shown in its words. An administrator
// merges two patients from the Index and jobs tab after a confirmation naming both. A reader sees neither.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { correct, merge } = fixtures;

async function studies(page, patientId) {
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(patientId)}`);
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-test=studies-status]');
    return s?.dataset.hash === location.hash && s.dataset.state === 'done';
  });
}

async function qidoStudy(query) {
  const r = await api(`/dicomweb/studies?${query}&includefield=AccessionNumber`,
    { headers: { accept: 'application/dicom+json' } });
  return r.status === 204 ? [] : r.json();
}

test('an uploader corrects a study\'s patient name and accession; the row, QIDO-RS and the Trash follow', async () => {
  const page = await newPage(browser);
  await login(page, 'uma', '/studies');
  await studies(page, correct.patientId);
  const row = page.locator(`[data-test=study-row][data-study="${correct.studyUid}"]`);
  await row.locator('[data-test=study-correct]').click();
  const dialog = page.locator('[data-test=correct-dialog]');
  await page.locator('[data-test=correct-dialog] form[data-state=loaded]').waitFor();
  // prefilled with what the store holds
  assert.equal(await dialog.locator('[data-test=correct-PatientID]').inputValue(), correct.patientId);
  assert.equal(await dialog.locator('[data-test=correct-PatientName]').inputValue(), correct.patientName);
  assert.equal(await dialog.locator('[data-test=correct-AccessionNumber]').inputValue(), correct.accession);
  assert.equal(await dialog.locator('[data-test=correct-StudyDate]').inputValue(), '20240106');

  // nothing changed: said without asking the store; a bad date: the store's refusal in its words
  await dialog.locator('[data-test=correct-ok]').click();
  assert.match(await dialog.locator('[data-test=correct-problem]').innerText(), /Nothing changed/);
  await dialog.locator('[data-test=correct-StudyDate]').fill('2024-01-06');
  await dialog.locator('[data-test=correct-ok]').click();
  await page.waitForFunction(() => /refused/.test(document.querySelector('[data-test=correct-problem]').textContent));
  assert.match(await dialog.locator('[data-test=correct-problem]').innerText(),
    /^The store refused the request: .*StudyDate/);
  await dialog.locator('[data-test=correct-StudyDate]').fill('20240106');

  await dialog.locator('[data-test=correct-PatientName]').fill('Misspelled^Name');
  await dialog.locator('[data-test=correct-AccessionNumber]').fill('ACC-NEW');
  await dialog.locator('[data-test=correct-reason]').fill('e2e: typing error');
  await screenshot(page, 'study-correct');
  await dialog.locator('[data-test=correct-ok]').click();
  await dialog.waitFor({ state: 'detached', timeout: 60000 });
  await page.locator('[data-test=correct-notice]').waitFor();
  assert.match(await page.locator('[data-test=correct-notice]').innerText(),
    /2 instances corrected \(PatientName, AccessionNumber\)/);

  // the row shows the store's new values
  const fresh = page.locator(`[data-test=study-row][data-study="${correct.studyUid}"]`);
  await page.waitForFunction((uid) => document.querySelector(`[data-test=study-row][data-study="${uid}"]`
    + ' [data-col=AccessionNumber]')?.textContent === 'ACC-NEW', correct.studyUid);
  assert.equal(await fresh.locator('[data-col=PatientName]').innerText(), 'Misspelled Name');
  await screenshot(page, 'study-corrected');

  // QIDO-RS, asked from the page with its session, agrees
  const found = await page.evaluate(async (uid) => {
    const r = await fetch(`/dicomweb/studies?StudyInstanceUID=${uid}&includefield=AccessionNumber`,
      { headers: { accept: 'application/dicom+json' } });
    const [s] = await r.json();
    return { name: s['00100010'].Value[0].Alphabetic, accession: s['00080050'].Value[0] };
  }, correct.studyUid);
  assert.deepEqual(found, { name: 'Misspelled^Name', accession: 'ACC-NEW' });
  assert.equal((await qidoStudy(`AccessionNumber=${correct.accession}`)).length, 0, 'the old accession is gone');

  // the Trash: the previous version, labelled as such, with the reason; Restore undoes the correction
  await page.locator('[data-test=nav-trash]').click();
  await page.locator('[data-test=trash-list][data-state=done]').waitFor();
  const version = `[data-test=trash-row][data-study="${correct.studyUid}"][data-level=VERSION]`;
  const trashId = await page.locator(version).getAttribute('data-trash');
  const entry = page.locator(`[data-test=trash-row][data-trash="${trashId}"]`);
  assert.match(await entry.innerText(), /Previous version \(correction\)/);
  assert.equal(await entry.locator('[data-test=trash-instances]').innerText(), String(correct.count));
  assert.equal(await entry.locator('[data-test=trash-reason]').innerText(), 'corrected: e2e: typing error');
  assert.equal(await entry.locator('[data-test=trash-by]').innerText(), 'uma');
  await screenshot(page, 'trash-previous-version');
  await entry.locator('[data-test=trash-restore]').click();
  await entry.waitFor({ state: 'detached' });
  await page.locator('[data-test=message-ok]', { hasText: `${correct.count} instances restored` }).waitFor();
  // the corrected version is in the trash in its turn, restorable likewise
  await page.locator(version).waitFor();
  const [undone] = await qidoStudy(`StudyInstanceUID=${correct.studyUid}`);
  assert.equal(undone['00080050'].Value[0], correct.accession, 'restored: the correction undone');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an administrator merges two patients after a confirmation naming both', async () => {
  const page = await newPage(browser);
  await login(page, 'admin', '/admin/index');
  await page.locator('[data-test=merge]').waitFor();
  await page.locator('[data-test=merge-source]').fill(merge.source);
  await page.locator('[data-test=merge-target]').fill(merge.target);
  await page.locator('[data-test=merge-reason]').fill('e2e: registered twice');
  await page.locator('[data-test=merge-submit]').click();
  const confirm = page.locator('[data-test=confirm-dialog]');
  await confirm.waitFor();
  const text = await confirm.innerText();
  assert.match(text, new RegExp(`1 study of Merge, Source \\(${merge.source}\\) becomes a study of Merge, Target \\(${merge.target}\\)`));
  await screenshot(page, 'admin-merge-confirm');
  await page.locator('[data-test=confirm-ok]').click();
  await page.locator('[data-test=merge-report]').waitFor({ timeout: 60000 });
  assert.match(await page.locator('[data-test=merge-report]').innerText(), new RegExp(`^1 study \\(1 instance\\) of ${merge.source} now belong to ${merge.target}`));
  const [moved] = await qidoStudy(`StudyInstanceUID=${merge.sourceStudyUid}`);
  assert.equal(moved['00100020'].Value[0], merge.target);
  assert.equal(moved['00100010'].Value[0].Alphabetic, merge.targetName);
  assert.equal((await qidoStudy(`PatientID=${merge.source}`)).length, 0);

  // an unknown patient: said before anything is asked of the store's jobs
  await page.locator('[data-test=merge-source]').fill('NOBODY-E2E');
  await page.locator('[data-test=merge-target]').fill(merge.target);
  await page.locator('[data-test=merge-submit]').click();
  await page.waitForFunction(() => document.querySelector('[data-test=merge-problem]').textContent);
  assert.match(await page.locator('[data-test=merge-problem]').innerText(), /no study of patient NOBODY-E2E/);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a reader sees no Correct… button and may not open the merge', async () => {
  const page = await newPage(browser);
  await login(page, 'rita', '/studies');
  await studies(page, correct.patientId);
  await page.locator(`[data-test=study-row][data-study="${correct.studyUid}"]`).waitFor();
  assert.equal(await page.locator('[data-test=study-correct]').count(), 0);
  assert.equal(await page.locator('[data-test=study-delete]').count(), 0);
  await page.goto(`${base}/viewer/#/admin/index`);
  await page.locator('[data-test=forbidden]').waitFor();
  assert.equal(await page.locator('[data-test=merge]').count(), 0);
  await page.context().close();
});
