// The administrator's console against the real store: suspend and resume a plugin (and the store refusing its
// filter meanwhile), a broken JAR refused with the registry's reason, a plugin replaced by its own JAR; a user
// created, logged in with, changed and deleted; the index rebuilt as a job; health and metrics; remote PACS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function admin(tab) {
  const page = await newPage(browser);
  await login(page, 'admin', `/admin/${tab}`);
  await page.locator(`[data-test=admin-${tab}]`).waitFor();
  return page;
}

async function confirm(page) {
  await page.locator('[data-test=confirm-ok]').click();
  await page.locator('[data-test=confirm-dialog]').waitFor({ state: 'detached' });
}

async function manifestPlugin(id) {
  return (await (await api('/filters')).json()).plugins.find((p) => p.id === id);
}

test('a plugin suspended and resumed: its state changes here and in the store, which refuses its filter meanwhile', async () => {
  const page = await admin('plugins');
  const plugins = (await (await api('/filters')).json()).plugins;
  assert.ok(plugins.length > 0, 'the store has plugins (seeded)');
  const id = plugins.some((p) => p.id === 'blur') ? 'blur' : plugins[0].id;
  const filter = plugins.find((p) => p.id === id).filters[0].id;
  const card = page.locator(`[data-test=plugin][data-plugin="${id}"]`);
  assert.equal(await card.getAttribute('data-state'), 'active');
  assert.equal(await card.locator('[data-test=plugin-sha]').innerText(), plugins.find((p) => p.id === id).sha256);
  assert.equal(await page.locator('[data-test=plugin]').count(), plugins.length);

  await card.locator('[data-test=plugin-suspend]').click();
  await confirm(page);
  await page.waitForFunction((p) => document.querySelector(`[data-test=plugin][data-plugin="${p}"]`)?.dataset.state
    === 'suspended', id);
  assert.equal(await card.locator('[data-test=plugin-state]').innerText(), 'suspended');
  assert.ok((await manifestPlugin(id)).filters.every((f) => f.state === 'SUSPENDED'));
  const image = fixtures.mixed.instances[0].path;
  assert.equal((await api(`${image}?render=png&filter=${filter}`)).status, 409);
  await screenshot(page, 'admin-plugins');

  await card.locator('[data-test=plugin-resume]').click();
  await page.waitForFunction((p) => document.querySelector(`[data-test=plugin][data-plugin="${p}"]`)?.dataset.state
    === 'active', id);
  assert.ok((await manifestPlugin(id)).filters.every((f) => f.state === 'ACTIVE'));
  assert.equal((await api(`${image}?render=png&filter=${filter}`)).status, 200);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a broken JAR is refused with the registry\'s reason; a plugin replaced by a JAR that loads', async () => {
  const page = await admin('plugins');
  const broken = join(fixtures.work, 'broken-plugin.jar');
  writeFileSync(broken, 'this is not a JAR');
  // No id to type: the store reads the Plugin-Id of the JAR's manifest.
  assert.equal(await page.locator('[data-test=install-id]').count(), 0, 'the form asks for no plugin id');
  const pluginsBefore = (await (await api('/filters')).json()).plugins.length;
  await page.locator('[data-test=install-file]').setInputFiles(broken);
  await page.locator('[data-test=install-submit]').click();
  const problem = page.locator('[data-test=install-problem]');
  await page.waitForFunction(() => document.querySelector('[data-test=install-problem]')?.textContent);
  assert.match(await problem.innerText(), /broken-plugin\.jar was not installed\. The store could not read it: not a filter plugin/);
  assert.equal((await (await api('/filters')).json()).plugins.length, pluginsBefore);

  // Replace blur with its own JAR (downloaded from the store): the confirmation, then the same SHA-256, active.
  const id = (await (await api('/filters')).json()).plugins[0].id;
  const before = await manifestPlugin(id);
  const jar = join(fixtures.work, `${id}.jar`);
  writeFileSync(jar, Buffer.from(await (await api(`/filters/${id}.jar`)).arrayBuffer()));
  const card = page.locator(`[data-test=plugin][data-plugin="${id}"]`);
  await card.locator('[data-test=plugin-replace-file]').setInputFiles(jar);
  assert.match(await page.locator('[data-test=confirm-dialog]').innerText(), new RegExp(`Replace ${id} `));
  await confirm(page);
  await page.locator('[data-test=message-ok]').filter({ hasText: `${id} ${before.version} replaced` }).waitFor();
  const after = await manifestPlugin(id);
  assert.equal(after.sha256, before.sha256);
  assert.equal(after.state, 'ACTIVE');

  // The same JAR through the install form, under another file name: installed as the id its manifest carries.
  const renamed = join(fixtures.work, 'some-upload.jar');
  writeFileSync(renamed, Buffer.from(await (await api(`/filters/${id}.jar`)).arrayBuffer()));
  await page.locator('[data-test=install-file]').setInputFiles(renamed);
  await page.evaluate(() => document.querySelectorAll('[data-test=message-ok]').forEach((m) => m.remove()));
  await page.locator('[data-test=install-submit]').click();
  await page.locator('[data-test=message-ok]').filter({ hasText: `${id} ${before.version} replaced` }).waitFor();
  assert.equal(await page.locator('[data-test=install-problem]').innerText(), '');
  assert.equal((await manifestPlugin(id)).sha256, before.sha256);
  assert.equal((await (await api('/filters')).json()).plugins.length, pluginsBefore);
  await page.context().close();
});

test('a user is created with projects, logs in with the role given, is changed and deleted', async () => {
  const page = await admin('users');
  const name = `e2e-${Date.now().toString(36)}`;
  const password = 'a-long-pass-1';
  await page.locator('[data-test=new-user-name]').fill(name);
  await page.locator('[data-test=new-user-role]').selectOption('uploader');
  await page.locator('[data-test=new-user-projects]').fill('neuro, cardiology');
  await page.locator('[data-test=new-user-password]').fill(password);
  await page.locator('[data-test=new-user-password-repeat]').fill(password);
  await page.locator('[data-test=new-user-create]').click();
  const row = page.locator(`[data-test=user-row][data-user="${name}"]`);
  await row.waitFor();
  assert.equal(await row.locator('[data-test=user-role-cell]').innerText(), 'uploader');
  assert.equal(await row.locator('[data-test=user-projects-cell]').innerText(), 'cardiology, neuro');
  assert.equal((await (await api('/admin/users')).json())[name], 'uploader');
  assert.deepEqual((await (await api('/admin/users?details=true')).json())[name],
    { role: 'uploader', projects: ['cardiology', 'neuro'] });

  // The same name again is not silently replaced.
  await page.locator('[data-test=new-user-name]').fill(name);
  await page.locator('[data-test=new-user-password]').fill(password);
  await page.locator('[data-test=new-user-password-repeat]').fill(password);
  await page.locator('[data-test=new-user-create]').click();
  assert.match(await page.locator('[data-test=new-user-problem]').innerText(), /exists already/);

  // The new account logs in and sees Upload but no Administration.
  const other = await newPage(browser);
  await other.goto(`${base}/viewer/`);
  await other.locator('[data-test=login-user]').fill(name);
  await other.locator('[data-test=login-password]').fill(password);
  await other.locator('[data-test=login-submit]').click();
  await other.locator('[data-test=session-user]').waitFor();
  assert.match(await other.locator('[data-test=session-user]').innerText(), new RegExp(`${name} \\(uploader\\)`));
  assert.equal(await other.locator('[data-test=nav-upload]').count(), 1);
  assert.equal(await other.locator('[data-test=nav-admin]').count(), 0);
  await other.context().close();

  // Role and projects changed (with a new password, as the store replaces the account whole).
  await row.locator('[data-test=user-edit]').click();
  assert.equal(await row.locator('[data-test=user-projects]').inputValue(), 'cardiology, neuro');
  await row.locator('[data-test=user-projects]').fill('neuro');
  await row.locator('[data-test=user-role]').selectOption('reader');
  await row.locator('[data-test=user-password]').fill('another-pass-2');
  await row.locator('[data-test=user-password-repeat]').fill('another-pass-2');
  await row.locator('[data-test=user-save]').click();
  await page.waitForFunction((n) => document.querySelector(`[data-test=user-row][data-user="${n}"] [data-test=user-role-cell]`)
    ?.textContent === 'reader', name);
  assert.equal((await (await api('/admin/users')).json())[name], 'reader');
  assert.equal(await page.locator(`[data-test=user-row][data-user="${name}"] [data-test=user-projects-cell]`)
    .innerText(), 'neuro');
  assert.equal(await page.locator('[data-test=user-row][data-user="admin"] [data-test=user-projects-cell]')
    .innerText(), 'none');

  await page.locator(`[data-test=user-row][data-user="${name}"] [data-test=user-delete]`).click();
  assert.match(await page.locator('[data-test=confirm-dialog]').innerText(), new RegExp(`Delete ${name}\\?`));
  await confirm(page);
  await page.locator(`[data-test=user-row][data-user="${name}"]`).waitFor({ state: 'detached' });
  assert.equal((await (await api('/admin/users')).json())[name], undefined);
  assert.ok(await page.locator('[data-test=user-row][data-user="admin"] [data-test=user-delete]').isDisabled(),
    'an admin cannot delete the account they are logged in with');
  await page.context().close();
});

test('the index is rebuilt as a job, followed to its report', async () => {
  const page = await admin('index');
  await page.locator('[data-test=rebuild]').click();
  await confirm(page);
  const report = page.locator('[data-test=rebuild-report]');
  await report.waitFor({ timeout: 120_000 }).catch(async (e) => {
    const shown = await page.locator('[data-test=rebuild-status]').innerText().catch(() => '(no status)');
    const jobs = await (await api('/jobs?limit=5')).text();
    throw new Error(`${e.message}\nthe page shows: ${shown}\nthe store's jobs: ${jobs}`);
  });
  const text = await report.innerText();
  const indexed = Number(/(\d+) objects indexed/.exec(text)?.[1]);
  assert.ok(indexed >= fixtures.mixed.instances.length + fixtures.stack.count, text);
  assert.equal(await page.locator('[data-test=rebuild-status] [data-test=job]').getAttribute('data-state'), 'DONE');
  const jobs = await (await api('/jobs?limit=5')).json();
  const job = jobs.find((j) => j.kind === 'index-rebuild' && j.state === 'DONE');
  assert.ok(job, JSON.stringify(jobs));
  assert.equal(JSON.parse(job.result).indexed, indexed);
  await page.locator('[data-test=jobs-table]').filter({ hasText: 'index-rebuild' }).waitFor();
  // The store's index answers as before.
  const studies = await (await api(`/dicomweb/studies?StudyInstanceUID=${fixtures.stack.studyUid}`,
    { headers: { accept: 'application/dicom+json' } })).json();
  assert.equal(studies[0]['00201208'].Value[0], fixtures.stack.count);
  await page.context().close();
});

test('health and metrics at a glance', async () => {
  const page = await admin('health');
  await page.locator('[data-test=health-check]').first().waitFor();
  assert.equal(await page.locator('[data-test=health-status]').innerText(), 'UP');
  // Every check of /health is listed: the store's own, and the database, storage and free-disk checks.
  const checks = page.locator('[data-test=health-check]');
  assert.match(await checks.filter({ hasText: 'indexedInstances' }).first().innerText(), /image-store[\s\S]*UP[\s\S]*indexedInstances/);
  for (const name of ['database', 'storage', 'disk-space']) {
    assert.match(await checks.filter({ hasText: name }).first().innerText(), /UP/, `the ${name} check`);
  }
  assert.match(await page.locator('[data-test=metric-heap]').innerText(), /JVM heap\s+[\d.]+ [KMG]iB of [\d.]+ [KMG]iB/);
  // The uploads counter is the store's own (the IT stored ~105 files by PUT).
  const metrics = await (await fetch(`${base}/metrics`)).text();
  const uploads = Number(/^uploads_total\{[^}]*\} (\S+)/m.exec(metrics)?.[1] ?? 0);
  const shown = Number(/\d+/.exec(await page.locator('[data-test=metric-uploads]').innerText())[0]);
  assert.ok(shown > 0 && Math.abs(shown - uploads) <= 5, `${shown} vs ${uploads}`);
  await page.context().close();
});

test('remote PACS: the configured peers, echoed and queried (or how to configure one)', async () => {
  const page = await admin('pacs');
  const remotes = await (await api('/pacs/remotes')).json();
  if (!remotes.length) {
    assert.match(await page.locator('[data-test=no-remotes]').innerText(), /medjava\.dicom\.remotes/);
    await page.context().close();
    return;
  }
  const ae = remotes[0].aeTitle;
  const row = page.locator(`[data-test=remote][data-ae="${ae}"]`);
  await row.locator('[data-test=echo]').click();
  await page.waitForFunction((a) => /answered|refused|did not|not/.test(document.querySelector(
    `[data-test=remote][data-ae="${a}"] [data-test=echo-result]`)?.textContent ?? ''), ae, { timeout: 30_000 });
  const echo = await (await api(`/pacs/remotes/${ae}/echo`, { method: 'POST' })).json().catch(() => null);
  if (fixtures.pacs) assert.ok(echo?.ok, `the IT's PACS (${fixtures.pacs.ae}) answers: ${JSON.stringify(echo)}`);
  if (echo?.ok) assert.match(await row.locator('[data-test=echo-result]').innerText(), /answered in \d+ ms/);
  else return; // a configured but absent peer: its refusal is what the echo cell shows

  await page.locator('[data-test=query-submit]').click();
  await page.waitForFunction(() => document.querySelector('[data-test=query-results]')?.textContent
    && !/Asking/.test(document.querySelector('[data-test=query-results]').textContent), null, { timeout: 60_000 });
  const found = await (await api(`/pacs/remotes/${ae}/studies`)).json();
  assert.equal(await page.locator('[data-test=remote-study]').count(), found.length);
  if (!found.length) return;
  // Retrieve a study the store does not hold yet as a job, followed to its counts; the study is in the store then.
  const rows = page.locator('[data-test=remote-study]');
  let study = rows.first();
  for (let i = 0; i < await rows.count(); i++) {
    if ((await rows.nth(i).locator('[data-test=in-store]').innerText()).trim() === '—') { study = rows.nth(i); break; }
  }
  const fresh = (await study.locator('[data-test=in-store]').innerText()).trim() === '—';
  const uid = await study.getAttribute('data-uid');
  await study.locator('[data-test=retrieve]').click();
  await study.locator('[data-test=retrieve-outcome]').waitFor({ timeout: 120_000 });
  const outcome = await study.locator('[data-test=retrieve-outcome]').innerText();
  if (fresh) assert.match(outcome, /[1-9]\d* stored, 0 failed \(by C-MOVE\); [1-9]\d* of the study's instances are in the store/);
  else assert.match(outcome, /stored, \d+ failed|Failed: .*C-MOVE/);
  const local = await (await api(`/dicomweb/studies?StudyInstanceUID=${uid}`,
    { headers: { accept: 'application/dicom+json' } })).json();
  assert.equal(local.length, 1);
  assert.match(await study.locator('[data-test=in-store]').innerText(), /\d+ images/);

  // Retrieve a study the store holds already: the copies it refuses (its duplicate policy) are "already held", which
  // is no failure, though the PACS counts them as failed sub-operations.
  if (fixtures.pacs?.heldStudyUid) {
    const held = page.locator(`[data-test=remote-study][data-uid="${fixtures.pacs.heldStudyUid}"]`);
    await held.locator('[data-test=retrieve]').click();
    const heldOutcome = held.locator('[data-test=retrieve-outcome]');
    await heldOutcome.waitFor({ timeout: 120_000 });
    assert.match(await heldOutcome.innerText(), new RegExp(`^0 stored, ${fixtures.pacs.heldCount} already held, 0 failed `
      + `\\(by C-MOVE\\); ${fixtures.pacs.heldCount} of the study's instances are in the store`));
    assert.equal(await heldOutcome.getAttribute('class'), 'ok');
  }

  // Send the mixed study from the store to the peer (C-STORE within the request).
  await page.locator('[data-test=send-search]').fill(fixtures.mixed.patientId);
  await page.locator('[data-test=send-find]').click();
  const local2 = page.locator(`[data-test=local-study][data-uid="${fixtures.mixed.studyUid}"]`);
  await local2.locator('[data-test=send]').click();
  await page.waitForFunction((u) => /sent,/.test(document.querySelector(`[data-test=local-study][data-uid="${u}"] `
    + '[data-test=send-outcome]')?.textContent ?? '') || /:/.test(document.querySelector(`[data-test=local-study]`
    + `[data-uid="${u}"] [data-test=send-outcome] .problem`)?.textContent ?? ''), fixtures.mixed.studyUid, { timeout: 120_000 });
  assert.match(await local2.locator('[data-test=send-outcome]').innerText(),
    new RegExp(`${fixtures.mixed.instances.length} sent, 0 failed, 0 with warnings to ${ae}`));
  await page.locator('.page').evaluate((el) => el.scrollTo(0, 0));
  await screenshot(page, 'admin-pacs');
  await page.context().close();
});
