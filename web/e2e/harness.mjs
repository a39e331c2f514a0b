// Shared support for the browser tests (web/e2e/*.test.mjs), run by the store's WebAppBrowserIT against a real
// store: Debian's Chromium driven by playwright-core (which never downloads browsers), the fixtures the IT stored,
// login, canvas pixel digests and screenshots.
//   MEDJAVA_E2E_FIXTURES  the IT's fixtures.json (store URL, users, studies)
//   MEDJAVA_E2E_SCREENSHOTS  where screenshots go (for the README); CHROMIUM  the browser (/usr/bin/chromium)
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const fixtures = JSON.parse(readFileSync(mustEnv('MEDJAVA_E2E_FIXTURES'), 'utf8'));
export const base = fixtures.url;

function mustEnv(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: the browser tests run from the store's WebAppBrowserIT`);
  return v;
}

/** The flags a closed network and a root user need; SwiftShader gives WebGL2 without a GPU. */
const FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
}

/**
 * A new page in its own context that records what a test must never see: page errors, console errors and
 * requests to any other origin (everything must come from the store).
 */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.foreign = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  // what the Content-Security-Policy refused (a script, an eval, a style): the page broke where it was refused
  page.csp = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) page.csp.push(m.text());
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:')) page.foreign.push(u);
  });
  return page;
}

/** Logs in through the login page as `user` (a key of fixtures.users) and waits for the application. */
export async function login(page, user = 'admin', next = '') {
  const password = fixtures.users[user].password;
  await page.goto(`${base}/viewer/${next ? `#/login?next=${encodeURIComponent(next)}` : ''}`);
  await page.locator('[data-test=login-user]').fill(user);
  await page.locator('[data-test=login-password]').fill(password);
  await page.locator('[data-test=login-submit]').click();
  await page.locator('[data-test=session-user]').waitFor();
}

/** A digest of what a canvas shows (sum and a cheap hash of its RGBA bytes), to tell whether the image changed. */
export async function canvasDigest(page, selector = '[data-test=viewport] canvas') {
  return page.locator(selector).first().evaluate((canvas) => {
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let sum = 0, hash = 2166136261, lit = 0;
    for (let i = 0; i < data.length; i += 4) {
      sum += data[i] + data[i + 1] + data[i + 2];
      if (data[i] | data[i + 1] | data[i + 2]) lit++;
      hash = Math.imul(hash ^ data[i] ^ (data[i + 1] << 8) ^ (data[i + 2] << 16), 16777619);
    }
    return { sum, lit, hash: hash >>> 0, width: canvas.width, height: canvas.height };
  });
}

export async function screenshot(page, name) {
  const dir = process.env.MEDJAVA_E2E_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}

/** Basic authorization for the store's API from the test itself (setting up, checking results). */
export function basic(user = 'admin') {
  return 'Basic ' + Buffer.from(`${user}:${fixtures.users[user].password}`).toString('base64');
}

export async function api(path, init = {}, user = 'admin') {
  return fetch(base + path, { ...init, headers: { authorization: basic(user), ...(init.headers ?? {}) } });
}
