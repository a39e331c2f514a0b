// Retention rules in the console (administrators): a new rule previewed before it is made (the one old RF study the IT
// stored, its counts; none when narrowed to a source AE that sent nothing), made, listed, run now (the study goes to the trash; the list shows what the run did), removed
// after a confirmation; a rule over the store's guard refused in the store's words with "Make it anyway" offered;
// a bad value refused by the store in its words. Neither uploaders nor readers may open the tab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { retention } = fixtures;
const rules = async () => (await api('/retention/rules')).json();

async function retentionTab() {
  const page = await newPage(browser);
  await login(page, 'admin', '/admin/retention');
  await page.locator('[data-test=retention-list][data-state=done]').waitFor();
  return page;
}

async function fill(page, { name, days, basis = 'STUDY_DATE', modality = '', sourceAe = '' }) {
  await page.locator('[data-test=retention-name]').fill(name);
  await page.locator('[data-test=retention-days]').fill(String(days));
  await page.locator('[data-test=retention-basis]').selectOption(basis);
  await page.locator('[data-test=retention-modality]').selectOption(modality);
  await page.locator('[data-test=retention-source-ae]').fill(sourceAe);
}

test('a rule is previewed before it is made, listed, run into the trash and removed', async () => {
  assert.deepEqual(await rules(), []);
  const page = await retentionTab();
  await page.locator('[data-test=retention-empty]').waitFor();
  const save = page.locator('[data-test=retention-save]');
  // narrowed to a source AE that sent nothing: it would take nothing
  await fill(page, { name: 'RF after ten years', days: 3652, modality: retention.modality, sourceAe: 'ELSEWHERE' });
  assert.equal(await save.isDisabled(), true, 'made only after a preview');
  await page.locator('[data-test=retention-preview-draft]').click();
  const none = page.locator('[data-test=retention-preview-counts][data-studies="0"]');
  await none.waitFor();
  assert.match(await none.innerText(), /would take nothing/);

  // the IT's file names its Source AE Title
  await page.locator('[data-test=retention-source-ae]').fill(retention.sourceAe);
  await page.locator('[data-test=retention-preview-draft]').click();
  const counts = page.locator('[data-test=retention-preview-counts][data-studies="1"]');
  await counts.waitFor();
  assert.equal(await counts.getAttribute('data-studies'), '1');
  assert.equal(await counts.getAttribute('data-instances'), '1');
  assert.match(await counts.innerText(), /^1 study, 1 instance: [\d.]+% of the store's \d+ instances\.$/);
  const study = page.locator('[data-test=retention-preview-study]');
  assert.equal(await study.getAttribute('data-study'), retention.studyUid);
  assert.match(await study.innerText(), /1990-01-01/);
  assert.deepEqual(await rules(), [], 'a preview makes nothing');
  await screenshot(page, 'admin-retention-preview');

  // a changed value needs a new preview
  await page.locator('[data-test=retention-days]').fill('3000');
  assert.equal(await save.isDisabled(), true);
  await page.locator('[data-test=retention-days]').fill('3652');
  await page.locator('[data-test=retention-preview-draft]').click();
  await page.waitForFunction(() => !document.querySelector('[data-test=retention-save]').disabled);
  await save.click();
  const row = page.locator('[data-test=retention-rule][data-name="RF after ten years"]');
  await row.waitFor();
  assert.equal(await row.locator('[data-test=retention-age]').innerText(), '3652 days by StudyDate');
  assert.equal(await row.locator('[data-test=retention-last-run]').innerText(), 'not yet');
  assert.equal(await row.locator('[data-test=retention-only]').innerText(),
    `a ${retention.modality} series, sent by ${retention.sourceAe}`);
  const [made] = await rules();
  assert.equal(made.modality, retention.modality);
  assert.equal(made.sourceAe, retention.sourceAe);
  assert.equal(made.enabled, true);

  // run now: the study goes to the trash, the row says what the run did
  await row.locator('[data-test=retention-run]').click();
  await page.locator('[data-test=confirm-ok]').click();
  await page.locator('[data-test=retention-last-run][data-outcome=deleted]').waitFor();
  assert.match(await row.locator('[data-test=retention-last-run]').innerText(),
    /^1 study \(1 instance\) moved to the trash/);
  const trashed = (await (await api('/trash')).json()).filter((d) => d.StudyInstanceUID === retention.studyUid);
  assert.equal(trashed.length, 1);
  assert.equal(trashed[0].reason, 'retention rule RF after ten years');
  await screenshot(page, 'admin-retention');

  // removed after a confirmation (Cancel keeps it)
  await row.locator('[data-test=retention-delete]').click();
  await page.locator('[data-test=confirm-cancel]').click();
  assert.equal((await rules()).length, 1);
  await row.locator('[data-test=retention-delete]').click();
  await page.locator('[data-test=confirm-ok]').click();
  await page.locator('[data-test=retention-empty]').waitFor();
  assert.deepEqual(await rules(), []);
  // what it took stays restorable
  assert.equal((await api(`/trash/${trashed[0].trashId}/restore`, { method: 'POST' })).status, 200);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('the store\'s guard and refusals are shown in its words; "Make it anyway" is offered, not taken', async () => {
  const page = await retentionTab();
  // every study dated before tomorrow: most of the store's instances, over the IT's guard (half, 50 or more)
  await fill(page, { name: 'everything', days: 1 });
  await page.locator('[data-test=retention-preview-draft]').click();
  await page.locator('[data-test=retention-preview-guard]').waitFor();
  await page.locator('[data-test=retention-save]').click();
  const problem = page.locator('[data-test=retention-form-problem]');
  await page.locator('[data-test=retention-confirm]').waitFor();
  assert.match(await problem.innerText(), /^Conflict: the rule would delete \d+ of the store's \d+ instances now .*confirm=true/);
  await screenshot(page, 'admin-retention-guard');
  await page.locator('[data-test=retention-confirm]').click();
  await page.locator('[data-test=confirm-cancel]').click();
  assert.deepEqual(await rules(), []);

  // a value the store refuses: in its words, nothing made
  await fill(page, { name: 'x'.repeat(64), days: 0 });
  await page.evaluate(() => { document.querySelector('[data-test=retention-form]').noValidate = true; });
  await page.locator('[data-test=retention-preview-draft]').click();
  await page.waitForFunction(() => document.querySelector('[data-test=retention-form-problem]').textContent);
  assert.match(await problem.innerText(), /^The store refused the request: olderThanDays: 1 to 73000, not 0/);
  assert.deepEqual(await rules(), []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('an uploader and a reader may not open the Retention tab', async () => {
  for (const [user, role] of [['uma', 'uploader'], ['rita', 'reader']]) {
    const page = await newPage(browser);
    await login(page, user, '/admin/retention');
    await page.locator('[data-test=forbidden]').waitFor();
    assert.match(await page.locator('[data-test=forbidden]').innerText(),
      new RegExp(`\\(${role}\\) may not open this page; it needs the admin role`));
    assert.equal(await page.locator('[data-test=retention-list]').count(), 0, user);
    await page.context().close();
  }
});
