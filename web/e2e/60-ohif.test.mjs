// OHIF 3.13 as shipped, on the store's DICOMweb, with the session of MedJava's login page: its study list shows the
// seeded studies, and its viewer renders the CT and the 30-frame US (pixels in the viewport, not a black canvas) —
// under a Content-Security-Policy without 'unsafe-inline' or 'unsafe-eval' scripts that refuses nothing, and
// with every request to the store's own origin and no DICOMweb request failing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, login, base, fixtures, screenshot } from './harness.mjs';

let browser;
let analyzer; // a blank page that decodes screenshots (OHIF draws with WebGL: its canvas cannot be read back)
before(async () => {
  browser = await launch();
  analyzer = await browser.newPage();
});
after(async () => { await browser?.close(); });

/** A page logged in on our login page, recording DICOMweb answers of 400 and more. */
async function ohifPage() {
  const page = await newPage(browser);
  page.dicomwebFailures = [];
  page.on('response', (r) => {
    if (r.status() >= 400 && new URL(r.url()).pathname.startsWith('/dicomweb')) {
      page.dicomwebFailures.push(`${r.status()} ${r.request().method()} ${r.url().replace(base, '')} `
        + `(Accept: ${r.request().headers().accept ?? '-'})`);
    }
  });
  page.on('requestfailed', (r) => {
    // ERR_ABORTED is OHIF cancelling its own request (a study-list query superseded by the next one), not a failure
    const error = r.failure()?.errorText;
    if (new URL(r.url()).pathname.startsWith('/dicomweb') && error !== 'net::ERR_ABORTED') {
      page.dicomwebFailures.push(`failed ${r.url().replace(base, '')}: ${error}`);
    }
  });
  await login(page, 'admin');
  return page;
}

/** Closes OHIF's first-visit tour and its investigational-use banner, which cover the viewport. */
async function dismissOverlays(page) {
  for (const name of ['Skip all', 'Confirm and hide']) {
    const button = page.getByRole('button', { name });
    if (await button.count()) await button.first().click().catch(() => {});
    const link = page.getByText(name, { exact: true });
    if (await link.count()) await link.first().click().catch(() => {});
  }
}

/** How much of the middle of the viewport is lit, and with how many grey levels (16 bins). */
async function viewportPixels(page) {
  const viewport = page.locator('[data-viewport-uid]').first();
  const box = await viewport.boundingBox();
  const clip = { x: box.x + box.width / 4, y: box.y + box.height / 4, width: box.width / 2, height: box.height / 2 };
  const png = (await page.screenshot({ clip })).toString('base64');
  return analyzer.evaluate(async (b64) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(bitmap, 0, 0);
    const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
    let lit = 0;
    const levels = new Set();
    for (let i = 0; i < data.length; i += 4) {
      const l = (data[i] + data[i + 1] + data[i + 2]) / 3;
      if (l > 24) lit++;
      levels.add(l >> 4);
    }
    return { lit: lit / (data.length / 4), levels: levels.size };
  }, png);
}

function checkClean(page, rendered = '') {
  assert.deepEqual(page.foreign, [], 'every request goes to the store\'s origin');
  // no 'unsafe-inline' or 'unsafe-eval' in OHIF's policy: nothing it runs may need them
  assert.deepEqual(page.csp, [], 'the Content-Security-Policy refused nothing');
  const f = page.dicomwebFailures;
  assert.ok(f.length === 0, `${rendered}${f.length} DICOMweb requests failed:\n${f.slice(0, 12).join('\n')}`
    + (f.length > 12 ? `\n… and ${f.length - 12} more` : ''));
}

test('OHIF\'s study list shows the seeded studies from the store', async () => {
  const page = await ohifPage();
  await page.goto(`${base}/ohif/`);
  const stack = page.locator('tbody tr', { hasText: 'Stack, Hundred' });
  await stack.waitFor({ timeout: 60_000 });
  assert.equal((await stack.locator('td').nth(5).innerText()).trim(), String(fixtures.stack.count));
  // The mixed study: CT, MR, CR, US and NM (the JPEG 2000 sample) in one, with its five instances.
  const mixed = page.locator('tbody tr').filter({ hasText: /CT/ }).filter({ hasText: /US/ }).filter({ hasText: /CR/ })
    .filter({ hasText: /MR/ });
  await mixed.first().waitFor();
  assert.ok((await mixed.allInnerTexts()).some((t) => new RegExp(`\\b${fixtures.mixed.instances.length}\\s*$`).test(t.trim())));
  await dismissOverlays(page);
  await screenshot(page, 'ohif-study-list');
  checkClean(page);
  await page.context().close();
});

for (const [sample, what] of [['CT_small.dcm', 'the CT'], ['examples_ybr_color.dcm', 'the 30-frame US']]) {
  test(`OHIF's viewer renders ${what}`, async () => {
    const page = await ohifPage();
    const instance = fixtures.mixed.instances.find((i) => i.sample === sample);
    const study = fixtures.mixed.studyUid;
    await page.goto(`${base}/ohif/viewer?StudyInstanceUIDs=${study}&initialSeriesInstanceUID=${instance.seriesUid}`);
    await page.locator('[data-viewport-uid] canvas.cornerstone-canvas').first().waitFor({ timeout: 60_000 });
    await dismissOverlays(page);
    // Our link back, at the same study (ohif/app-config.js whiteLabeling).
    assert.equal(await page.locator('[data-cy=medjava-link]').getAttribute('href'),
      `/viewer/#/view?study=${encodeURIComponent(study)}`);
    // Rendering takes the frames' requests and the decoders: wait for pixels (at most 45 s; 10 s once frames failed).
    const image = (p) => p.lit > 0.05 && p.levels >= 4;
    let pixels = { lit: 0, levels: 0 };
    for (let waited = 0; waited < 45_000; waited += 1500) {
      pixels = await viewportPixels(page);
      if (image(pixels) || (waited >= 10_000 && page.dicomwebFailures.some((f) => f.includes('/frames/')))) break;
      await page.waitForTimeout(1500);
    }
    await screenshot(page, `ohif-${sample.replace('.dcm', '')}`);
    const seen = `OHIF's viewport: ${image(pixels) ? 'an image' : 'no image'} (lit share ${pixels.lit.toFixed(3)}, `
      + `${pixels.levels} grey levels). `;
    checkClean(page, seen);
    assert.ok(image(pixels), seen);
    await page.context().close();
  });
}
