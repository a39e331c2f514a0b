// A study's labels from the study list (administrators): the Labels… dialog shows none, adds one (the store then
// lists it), refuses a malformed one without asking the store, and takes the label off again. A reader sees no
// Labels… button.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const { stack } = fixtures;
const labelsOf = async () => (await api(`/index/studies/${stack.studyUid}/labels`)).json();

/** Waits until the dialog shows the store's answer. */
async function shown(page) {
  await page.waitForFunction(() => document.querySelector('[data-test=labels-list]')?.dataset.state === 'done');
}

test('an administrator labels a study from its row and takes the label off again', async () => {
  const page = await newPage(browser);
  await login(page, 'admin', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  const row = page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`);
  await row.locator('[data-test=study-labels]').click();
  await shown(page);
  assert.equal(await page.locator('[data-test=label]').count(), 0);

  await page.locator('[data-test=labels-input]').fill('cardiology');
  await page.locator('[data-test=labels-add]').click();
  await page.locator('[data-test=label][data-label=cardiology]').waitFor();
  await shown(page);
  assert.deepEqual(await labelsOf(), ['cardiology']);
  await screenshot(page, 'study-labels');

  await page.locator('[data-test=labels-input]').fill('not a label');
  await page.locator('[data-test=labels-add]').click();
  assert.match(await page.locator('[data-test=labels-problem]').innerText(), /letters, digits/);
  assert.deepEqual(await labelsOf(), ['cardiology']);

  await page.locator('[data-test=label][data-label=cardiology] [data-test=label-remove]').click();
  await page.waitForFunction(() => !document.querySelector('[data-test=label]'));
  assert.deepEqual(await labelsOf(), []);
  await page.locator('[data-test=labels-close]').click();
  assert.equal(await page.locator('[data-test=labels-dialog]').count(), 0);
  assert.deepEqual(page.problems, []);
});

test('a reader gets no Labels button', async () => {
  const page = await newPage(browser);
  await login(page, 'rita', '/studies');
  await page.goto(`${base}/viewer/#/studies?id=${encodeURIComponent(stack.patientId)}`);
  await page.locator(`[data-test=study-row][data-study="${stack.studyUid}"]`).waitFor();
  assert.equal(await page.locator('[data-test=study-labels]').count(), 0);
});
