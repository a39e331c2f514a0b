// The store serves both web applications from its own origin: / lands on the viewer, OHIF's routes fall back to
// its index.html, nothing is fetched from elsewhere, and the Content-Security-Policy says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, base } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('a browser asking for / lands on /viewer/', async () => {
  const page = await newPage(browser);
  await page.goto(base + '/');
  assert.match(new URL(page.url()).pathname, /^\/viewer\/$/);
  assert.deepEqual(page.foreign, []);
});

test('OHIF is served at /ohif/ with its single-page routes and our configuration', async () => {
  for (const path of ['/ohif/', '/ohif/viewer?StudyInstanceUIDs=1.2.3']) {
    const r = await fetch(base + path);
    assert.equal(r.status, 200, path);
    const html = await r.text();
    assert.match(html, /window\.PUBLIC_URL = '\/ohif\/'/, path);
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /default-src 'self'/);
    // scripts by origin and by hash only: an injected inline script or an eval is refused
    const scripts = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
    assert.doesNotMatch(scripts, /'unsafe-inline'|'unsafe-eval'/, path);
    assert.match(scripts, /'sha256-[A-Za-z0-9+/]+=*'/, path);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
  }
  const config = await (await fetch(base + '/ohif/app-config.js')).text();
  assert.match(config, /routerBasename: '\/ohif'/);
  assert.match(config, /window\.location\.origin \+ '\/dicomweb'/);
  // OHIF's AI runtime is left out of the package: its files are absent, not served as the app's index.
  assert.equal((await fetch(base + '/ohif/ort/ort-wasm-simd-threaded.wasm')).status, 404);
});

test('static files: types, validators, and no way out of the application', async () => {
  const wasm = await fetch(base + '/viewer/wasm/charlswasm_decode.wasm');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get('content-type'), 'application/wasm');
  const etag = (await fetch(base + '/viewer/')).headers.get('etag');
  assert.ok(etag);
  assert.equal((await fetch(base + '/viewer/', { headers: { 'if-none-match': etag } })).status, 304);
  for (const path of ['/viewer/..%2f..%2fWEB-INF/web.xml', '/viewer/.hidden', '/viewer/nope.js',
    '/viewer/%2e%2e/%2e%2e/META-INF/MANIFEST.MF']) {
    // 400 (the container), 401 (not an open path once decoded) or 404: never the file
    const status = (await fetch(base + path)).status;
    assert.ok([400, 401, 404].includes(status), `${path}: ${status}`);
  }
});

test('/favicon.ico: a real icon at the site root, open without a login, cached, and asked for by no 404', async () => {
  const r = await fetch(base + '/favicon.ico'); // no credentials
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'image/x-icon');
  assert.match(r.headers.get('cache-control'), /max-age=\d+/);
  assert.ok(r.headers.get('etag'));
  const bytes = new Uint8Array(await r.arrayBuffer());
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO file');
  // A browser session on the viewer: whatever icon it asks for is there.
  const page = await newPage(browser);
  const missing = [];
  page.on('response', (res) => { if (res.status() === 404) missing.push(res.url()); });
  await page.goto(base + '/viewer/');
  const icon = await page.evaluate(() => document.querySelector('link[rel=icon]')?.href);
  assert.ok(icon, 'the viewer names its icon');
  assert.equal((await page.goto(icon)).status(), 200);
  assert.equal((await page.goto(base + '/favicon.ico')).status(), 200);
  assert.deepEqual(missing, []);
  await page.context().close();
});
