// Single sign-on and access by project, run by the store's SingleSignOnBrowserIT against a real Keycloak and a store
// with access by project on: alice (a reader of project cardiology) logs in through the provider's own login page,
// sees exactly her project's studies (the page's totals too), a study of another project opens as "not found" like
// a study that does not exist; logging out ends the provider's session too; bob (an administrator) sees every study.
// The tests run in order in one browser context, as one user's day.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, base, fixtures, screenshot } from '../harness.mjs';
import { openView } from '../10-support.mjs';

const provider = new URL(fixtures.issuer).origin;
const { cardiology, research, unlabelled } = fixtures;
const everyStudy = [...cardiology, research, unlabelled].map((s) => s.studyUid).sort();

let browser, page;
before(async () => {
  browser = await launch();
  page = await newPage(browser);
});
after(async () => { await browser?.close(); });

const rows = () => page.locator('[data-test=study-row]');
const shownStudies = async () => (await rows().evaluateAll((trs) => trs.map((r) => r.dataset.study))).sort();

/** Waits for the study list's answer to the address now in the bar (not the page before). */
async function answered() {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-test=studies-status]');
    return s?.dataset.hash === location.hash && s.dataset.state === 'done';
  });
}

/** On the provider's login page: asserts it is the provider's, types the user's password, and is back in the store. */
async function providerLogin(user) {
  await page.waitForURL((u) => u.href.startsWith(`${fixtures.issuer}/protocol/openid-connect/auth`));
  await page.locator('input[name=username]').fill(user);
  await page.locator('input[name=password]').fill(fixtures.users[user].password);
  await page.locator('#kc-login').click();
  await page.locator('[data-test=session-user]').waitFor();
}

test('alice opens the viewer, is sent to the login page, and logs in through the provider\'s own page', async () => {
  await page.goto(`${base}/viewer/#/studies`);
  await page.locator('[data-test=login-user]').waitFor();
  assert.equal(new URL(page.url()).hash, '#/login?next=%2Fstudies');
  const sso = page.locator('[data-test=login-sso]');
  assert.equal(await sso.textContent(), fixtures.displayName);

  await sso.click();
  await providerLogin('alice');

  assert.equal(await page.locator('[data-test=session-user]').textContent(), 'alice (reader)');
  assert.equal(page.url(), `${base}/viewer/#/studies`, 'back on the page the login was for');
  const me = await page.evaluate(async () => (await fetch('/auth/me')).json());
  assert.equal(me.user, 'alice');
  assert.equal(me.role, 'reader');
  assert.deepEqual(me.projects, ['cardiology']);
  assert.match(await page.locator('[data-test=session-user]').getAttribute('title'), /projects: cardiology/);
});

test('alice\'s study list holds exactly her project\'s studies, and its totals count nothing else', async () => {
  await answered();
  assert.deepEqual(await shownStudies(), cardiology.map((s) => s.studyUid).sort());
  assert.equal(await page.locator('[data-test=studies-status]').textContent(), '2 studies.');
  const [first] = cardiology;
  const row = page.locator(`[data-test=study-row][data-study="${first.studyUid}"]`);
  assert.equal(await row.locator('[data-col=NumberOfStudyRelatedInstances]').textContent(), String(first.images));
  assert.equal(await row.locator('[data-col=NumberOfStudyRelatedSeries]').textContent(), '1');
  const text = await page.locator('main').innerText();
  for (const hidden of ['Research CT', 'No project', 'Plain Paul', research.studyUid, unlabelled.studyUid]) {
    assert.ok(!text.includes(hidden), `the study list shows nothing of another project (${hidden})`);
  }
  await screenshot(page, 'sso-studies-alice');
  // her study's series, thumbnail included (DICOMweb filters by project; the file tree is not hers to browse)
  await row.locator('[data-test=study-expand]').click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-test=series-card] img')]
    .some((i) => i.complete && i.naturalWidth > 0), null, { timeout: 30_000 });
  assert.deepEqual(await page.locator('[data-test=series-card]').evaluateAll((cs) => cs.map((c) => c.dataset.series)),
    [first.seriesUid]);
  assert.equal(await page.locator('[data-test=nav-browse]').count(), 0);

  // the patient with a study in each project: one study found, one counted
  await page.goto(`${base}/viewer/#/studies?id=${research.patientId}`);
  await answered();
  assert.deepEqual(await shownStudies(), [first.studyUid]);
  assert.equal(await page.locator('[data-test=studies-status]').textContent(), '1 study.');
  const patients = await page.evaluate(async () => (await fetch('/index/patients')).json());
  const patient = patients.find((p) => p.PatientID === research.patientId);
  assert.equal(patient?.NumberOfPatientRelatedStudies, 1, JSON.stringify(patients));
  assert.equal(patient?.NumberOfPatientRelatedInstances, first.images, JSON.stringify(patients));
  assert.deepEqual(patients.map((p) => p.PatientID).sort(), [first.patientId, cardiology[1].patientId].sort());
});

/** The viewer's page for a study, loaded afresh: its message and error notice, the study's UIDs written as <uid>. */
async function viewerRefusal(study, series) {
  await page.goto('about:blank');
  await page.goto(`${base}/viewer/#/view?study=${study}&series=${series}`);
  await page.locator('[data-test=viewer-message][data-state=error]').waitFor({ state: 'attached', timeout: 30_000 });
  const notice = page.locator('[data-test=message-error]');
  await notice.waitFor();
  const same = (s) => s.replaceAll(study, '<uid>').replaceAll(series, '<uid>').replace(/×$/, '');
  return { message: same(await page.locator('[data-test=viewer-message]').textContent()),
    notice: same(await notice.textContent()), notices: await notice.count(), canvases: await page.locator('[data-test=viewport] canvas').count() };
}

test('a study of another project opens in the viewer as "not found", the same as a study that does not exist', async (t) => {
  await openView(page, { study: cardiology[0].studyUid, series: cardiology[0].seriesUid }); // her own: on show

  const missing = await viewerRefusal('2.25.999999999999999999999999', '2.25.888888888888888888888888');
  assert.match(missing.message, /The viewer could not open this study: .*no study <uid>/);
  assert.equal(missing.notices, 1);
  t.diagnostic(`a study not found: ${JSON.stringify(missing)}`);
  for (const other of [research, unlabelled]) {
    assert.deepEqual(await viewerRefusal(other.studyUid, other.seriesUid), missing, `study ${other.studyUid}`);
  }
});

test('logging out ends the session at the provider too: the next login asks for the password again', async () => {
  // while the provider's session lives, its login page lets alice straight through
  await page.goto(`${base}/auth/oidc/login?next=${encodeURIComponent('/viewer/#/studies')}`);
  await page.locator('[data-test=session-user]').waitFor();
  assert.equal(page.url(), `${base}/viewer/#/studies`);
  assert.equal(await page.locator('[data-test=session-user]').textContent(), 'alice (reader)');

  await page.locator('[data-test=logout]').click();
  await page.waitForURL((u) => u.href.startsWith(`${fixtures.issuer}/protocol/openid-connect/logout`));
  await page.locator('#kc-logout').click(); // the provider asks (the store sends no ID token hint)
  await page.locator('[data-test=login-sso]').waitFor(); // back at the store's start: its login page
  assert.ok(page.url().startsWith(`${base}/viewer/#/login`), page.url());
  assert.equal((await page.evaluate(async () => (await fetch('/auth/me')).status)), 401);

  await page.goto(`${base}/viewer/#/studies`);
  await page.locator('[data-test=login-sso]').click();
  await page.waitForURL((u) => u.href.startsWith(`${fixtures.issuer}/protocol/openid-connect/auth`));
  await page.locator('input[name=password]').waitFor();
  assert.equal(await page.locator('input[name=password]').inputValue(), '');
});

test('bob, an administrator, logs in on the same page and sees every study', async () => {
  await providerLogin('bob');
  assert.equal(await page.locator('[data-test=session-user]').textContent(), 'bob (admin)');
  await answered();
  assert.deepEqual(await shownStudies(), everyStudy);
  assert.equal(await page.locator('[data-test=studies-status]').textContent(), '4 studies.');
  assert.equal((await page.evaluate(async () => (await fetch('/auth/me')).json())).projects, undefined);
  await page.locator('[data-test=nav-browse]').waitFor();
  await screenshot(page, 'sso-studies-bob');

  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.csp, []);
  assert.deepEqual(page.foreign.filter((u) => !u.startsWith(`${provider}/`)), [], 'only the store and the provider');
});
