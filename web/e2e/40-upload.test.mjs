// The upload page: a DICOM file, a folder with a mix (DICOM, PNG, a text file named .dcm, a hidden file), per-file
// progress on a throttled connection, cancel, a 413 over the store's limit (fixtures.uploadLimit), STOW-RS with a
// duplicate refused, and what is stored checked through the store's API. A reader sees no Upload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, newPage, login, base, fixtures, api, screenshot } from './harness.mjs';
import { png } from './10-support.mjs';

let browser;
const run = `e2e-upload/${Date.now().toString(36)}`;
const work = join(fixtures.work, `upload-${Date.now().toString(36)}`);
const ct = join(fixtures.samples, 'dicom', 'CT_small.dcm');

before(async () => {
  browser = await launch();
  mkdirSync(join(work, 'mix', 'sub'), { recursive: true });
  copyFileSync(ct, join(work, 'mix', 'ct.dcm'));
  writeFileSync(join(work, 'mix', 'sub', 'picture.png'), png(64, 48, false));
  writeFileSync(join(work, 'mix', 'notes.dcm'), 'Referral letter, not an image.\n');
  copyFileSync(join(fixtures.samples, 'dicom', 'MR_truncated.dcm'), join(work, 'mix', 'sub', 'truncated.dcm'));
  writeFileSync(join(work, 'mix', '.DS_Store'), 'finder');
  writeFileSync(join(work, 'large.png'), png(1200, 1000, true)); // ~3.6 MB of noise: progress is visible
  writeFileSync(join(work, 'big.dcm'), Buffer.alloc(fixtures.uploadLimit + 1024 * 1024));
  writeFileSync(join(work, 'big2.dcm'), Buffer.alloc(fixtures.uploadLimit + 2048));
  writeFileSync(join(work, 'fresh.dcm'), withNewInstanceUid(readFileSync(ct)));
});
after(async () => { await browser?.close(); });

async function uploadPage(user = 'uma') {
  const page = await newPage(browser);
  await login(page, user, '/upload');
  await page.locator('[data-test=dropzone]').waitFor();
  await page.locator('[data-test=upload-dir]').fill(run);
  return page;
}

const row = (page, path) => page.locator(`[data-test=upload-row][data-path="${path}"]`);

async function settled(page, path) {
  const r = row(page, path);
  await r.waitFor();
  await page.waitForFunction((el) => !['waiting', 'sending'].includes(el.dataset.state), await r.elementHandle(),
    { timeout: 60_000 });
  return { state: await r.getAttribute('data-state'), text: await r.innerText() };
}

test('a DICOM file is uploaded into the chosen folder and the summary links its study', async () => {
  const page = await uploadPage();
  await page.locator('[data-test=upload-files]').setInputFiles(ct);
  const r = await settled(page, 'CT_small.dcm');
  assert.equal(r.state, 'stored', r.text);
  const summary = page.locator('[data-test=upload-summary]');
  await summary.waitFor();
  assert.match(await summary.innerText(), /1 stored/);
  assert.equal(await page.locator('[data-test=summary-folder]').getAttribute('href'), `#/browse/${run}/`);
  // The study of the file, from the index: a link to our viewer.
  const view = page.locator('[data-test=summary-studies] a[href^="#/view?study="]');
  await view.waitFor();
  const stored = await api(`/images/${run}/CT_small.dcm`);
  assert.equal(stored.status, 200);
  assert.deepEqual(Buffer.from(await stored.arrayBuffer()), readFileSync(ct));
  // The same file again is kept as it was unless "Replace files that exist" is ticked.
  await page.locator('[data-test=upload-clear]').click();
  await page.locator('[data-test=upload-files]').setInputFiles(ct);
  const again = await settled(page, 'CT_small.dcm');
  assert.equal(again.state, 'refused');
  assert.match(again.text, /412[\s\S]*stored at this path already/);
  await page.locator('[data-test=upload-clear]').click();
  await page.locator('[data-test=upload-replace]').check();
  await page.locator('[data-test=upload-files]').setInputFiles(ct);
  const replaced = await settled(page, 'CT_small.dcm');
  assert.equal(replaced.state, 'stored');
  assert.match(replaced.text, /replaced the stored file/);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a folder with a mix: DICOM and PNG stored with their folder structure, the rest listed with reasons', async () => {
  const page = await uploadPage();
  await page.locator('[data-test=upload-folder]').setInputFiles(join(work, 'mix'));
  const dicom = await settled(page, 'mix/ct.dcm');
  const picture = await settled(page, 'mix/sub/picture.png');
  const notes = await settled(page, 'mix/notes.dcm');
  const hidden = await settled(page, 'mix/.DS_Store');
  const truncated = await settled(page, 'mix/sub/truncated.dcm');
  assert.equal(dicom.state, 'stored', dicom.text);
  assert.equal(picture.state, 'stored', picture.text);
  assert.equal(notes.state, 'refused');
  assert.match(notes.text, /415[\s\S]*not a recognised image[\s\S]*accepts DICOM \(Part 10\), GIF, PNG and JPEG/);
  assert.equal(hidden.state, 'skipped');
  assert.match(hidden.text, /hidden name/);
  assert.equal(truncated.state, 'refused');
  assert.match(truncated.text, /422[\s\S]*could not read it: truncated: /);
  await page.locator('[data-test=upload-summary]').waitFor();
  const summary = await page.locator('[data-test=upload-summary]').innerText();
  assert.match(summary, /2 stored[\s\S]*2 refused by the store[\s\S]*1 not sent/);
  // Refused-only view.
  await page.locator('[data-test=upload-count-refused]').click();
  assert.equal(await page.locator('[data-test=upload-row]:visible').count(), 2);
  await page.locator('[data-test=upload-count-all]').click();
  // What the store holds now.
  assert.equal((await api(`/images/${run}/mix/ct.dcm`)).status, 200);
  const png = await api(`/images/${run}/mix/sub/picture.png`);
  assert.equal(png.status, 200);
  assert.equal(png.headers.get('content-type'), 'image/png');
  assert.equal((await api(`/images/${run}/mix/notes.dcm`)).status, 404);
  assert.equal((await api(`/images/${run}/mix/sub/truncated.dcm`)).status, 404);
  assert.equal((await api(`/images/${run}/mix/.DS_Store`)).status, 400); // a name the store never keeps
  await page.locator('.page').evaluate((el) => el.scrollTo(0, 200));
  await screenshot(page, 'upload-folder-with-refusals');
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('dropping a whole folder and a file: the folder is walked (webkitGetAsEntry), its structure kept', async () => {
  const page = await uploadPage();
  await page.locator('[data-test=upload-dir]').fill(`${run}/dropped`);
  // A real drag of files from the desktop, as Chromium's DevTools protocol gives it (directories included).
  const box = await page.locator('[data-test=dropzone]').boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [join(work, 'mix'), ct], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) {
    await cdp.send('Input.dispatchDragEvent', { type, x: box.x + 40, y: box.y + 40, data });
  }
  assert.equal((await settled(page, 'CT_small.dcm')).state, 'stored');
  assert.equal((await settled(page, 'mix/sub/picture.png')).state, 'stored');
  assert.equal((await settled(page, 'mix/notes.dcm')).state, 'refused');
  assert.equal((await settled(page, 'mix/.DS_Store')).state, 'skipped');
  assert.equal((await settled(page, 'mix/ct.dcm')).state, 'stored');
  assert.equal((await api(`/images/${run}/dropped/mix/sub/picture.png`)).status, 200);
  assert.equal((await api(`/images/${run}/dropped/CT_small.dcm`)).status, 200);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('per-file progress on a slow connection, and a cancelled file leaves nothing behind', async () => {
  const page = await uploadPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1,
    uploadThroughput: 600 * 1024 });
  await page.locator('[data-test=upload-files]').setInputFiles(join(work, 'large.png'));
  const r = row(page, 'large.png');
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-test=upload-row][data-path="large.png"]');
    const p = el?.querySelector('progress');
    return el?.dataset.state === 'sending' && p.value > p.max / 4 && p.value < p.max;
  }, null, { timeout: 20_000 });
  assert.match(await r.innerText(), /sending \d+%/);
  const overall = await page.locator('[data-test=upload-overall]').evaluate((p) => [p.value, p.max]);
  assert.ok(overall[0] > 0 && overall[0] < overall[1], `overall ${overall}`);
  await page.locator('.page').evaluate((el) => el.scrollTo(0, 200));
  await screenshot(page, 'upload-progress');
  await r.locator('[data-test=upload-cancel]').click();
  const cancelled = await settled(page, 'large.png');
  assert.equal(cancelled.state, 'cancelled');
  assert.match(cancelled.text, /cancelled after/);
  assert.equal((await api(`/images/${run}/large.png`)).status, 404);
  // Sent again at full speed: stored.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1,
    uploadThroughput: -1 });
  await page.locator('[data-test=upload-retry]').click();
  assert.equal((await settled(page, 'large.png')).state, 'stored');
  assert.equal((await api(`/images/${run}/large.png`)).status, 200);
  await page.context().close();
});

test('a file over the store\'s upload limit is refused with the store\'s reason; the next one is not even sent', async () => {
  const page = await uploadPage();
  await page.locator('[data-test=upload-files]').setInputFiles(join(work, 'big.dcm'));
  const big = await settled(page, 'big.dcm');
  assert.equal(big.state, 'refused');
  assert.match(big.text, new RegExp(`413[\\s\\S]*Too large for the store: .*upload limit of ${fixtures.uploadLimit} bytes`));
  await page.locator('[data-test=upload-files]').setInputFiles(join(work, 'big2.dcm'));
  const second = await settled(page, 'big2.dcm');
  assert.equal(second.state, 'refused');
  assert.match(second.text, /not sent: .* is over the store's upload limit of 24 MiB \(25165824 bytes/);
  assert.equal((await api(`/images/${run}/big.dcm`)).status, 404);
  await page.context().close();
});

test('STOW-RS: DICOM filed by patient and study, a duplicate instance and a PNG refused with reasons', async () => {
  const page = await uploadPage();
  await page.locator('[data-test=upload-mode-stow]').check();
  await page.locator('[data-test=upload-files]').setInputFiles([join(work, 'fresh.dcm'), ct,
    join(work, 'mix', 'sub', 'picture.png')]);
  const fresh = await settled(page, 'fresh.dcm');
  const duplicate = await settled(page, 'CT_small.dcm');
  const picture = await settled(page, 'picture.png');
  assert.equal(fresh.state, 'stored', fresh.text);
  assert.match(fresh.text, /filed under \/images\/dicom\/[\s\S]*view study/);
  assert.equal(duplicate.state, 'refused');
  assert.match(duplicate.text, /409[\s\S]*0111: duplicate SOP instance/);
  assert.equal(picture.state, 'refused');
  assert.match(picture.text, /not a DICOM Part 10 file/);
  await page.locator('[data-test=upload-summary]').waitFor();
  const href = await page.locator('[data-test=summary-studies] a[href^="#/view?study="]').first().getAttribute('href');
  const study = decodeURIComponent(href.split('=')[1]);
  const found = await (await api(`/dicomweb/studies?StudyInstanceUID=${study}`,
    { headers: { accept: 'application/dicom+json' } })).json();
  assert.equal(found.length, 1);
  await page.context().close();
});

test('a reader sees no Upload or Administration, and is told why when she goes there', async () => {
  const page = await newPage(browser);
  await login(page, 'rita');
  assert.equal(await page.locator('[data-test=nav-studies]').count(), 1);
  assert.equal(await page.locator('[data-test=nav-upload]').count(), 0);
  assert.equal(await page.locator('[data-test=nav-admin]').count(), 0);
  for (const [route, role] of [['/upload', 'uploader'], ['/admin/plugins', 'admin']]) {
    await page.goto(`${base}/viewer/#${route}`);
    const refusal = page.locator('[data-test=forbidden]');
    await refusal.waitFor();
    assert.match(await refusal.innerText(), new RegExp(`\\(reader\\) may not open this page; it needs the ${role} role`));
    assert.equal(await page.locator('[data-test=dropzone]').count(), 0);
  }
  await page.context().close();
});

/** The file with another SOP Instance UID of the same length (meta header and data set), so STOW takes it as new. */
function withNewInstanceUid(file) {
  // (0008,0018) UI in explicit VR little endian: 08 00 18 00 'U' 'I' length.
  const at = file.indexOf(Buffer.from([0x08, 0x00, 0x18, 0x00, 0x55, 0x49]));
  const length = file.readUInt16LE(at + 6);
  const uid = file.subarray(at + 8, at + 8 + length).toString('latin1').replace(/\0$/, '');
  const tail = String(Date.now()).slice(-6);
  const fresh = uid.slice(0, uid.length - tail.length) + tail;
  return Buffer.from(file.toString('latin1').split(uid).join(fresh), 'latin1');
}
