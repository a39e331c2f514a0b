// For working on the web application without rebuilding the WAR: serves web/target/dev/viewer/ (rebuilt by
// `MEDJAVA_WEB_DEV=1 node scripts/build.mjs target/dev`) at /viewer/ and proxies every other path to a running
// store, so the page, its session cookie and the store's API share one origin as in production.
//   node scripts/dev-server.mjs http://127.0.0.1:8080 [port=8081]
// With MEDJAVA_DEV_BASIC=user:password:role every proxied request carries that Basic login and /auth/* is answered
// here with a cookie session of its own (for a store built before browser sessions existed; development only).
import { createServer, request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname, extname, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const store = new URL(process.argv[2] ?? 'http://127.0.0.1:8080');
const port = Number(process.argv[3] ?? 8081);
const root = join(web, 'target/dev/viewer');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml' };

const devBasic = process.env.MEDJAVA_DEV_BASIC?.split(':');
// The policy the store sends with the viewer (WebAppResource.VIEWER_POLICY), so development meets the same limits.
const VIEWER_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
  + "img-src 'self' data: blob:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
  + "frame-ancestors 'self'";

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  // The stand-in session: a cookie set by /auth/login with the right name and password; without it the store's API
  // answers 401 as a store without anonymous reading does (so the page's way back after a 401 can be tried here).
  const devSession = devBasic && /(^|;\s*)medjava-dev=1/.test(req.headers.cookie ?? '');
  if (devBasic && url.pathname.startsWith('/auth/')) {
    const me = JSON.stringify({ user: devBasic[0], role: devBasic[2] ?? 'admin', expires: new Date(Date.now() + 36e5).toISOString() });
    if (url.pathname === '/auth/logout') {
      res.writeHead(204, { 'set-cookie': 'medjava-dev=; Path=/; Max-Age=0' }).end();
    } else if (url.pathname === '/auth/login') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const { username, password } = JSON.parse(body || '{}');
      if (username !== devBasic[0] || password !== devBasic[1]) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"wrong user name or password"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'medjava-dev=1; Path=/; HttpOnly; SameSite=Strict' }).end(me);
      }
    } else if (!devSession) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"not logged in"}');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(me);
    }
    return;
  }
  if (devBasic && !devSession && !req.headers.authorization && /^\/(images|dicomweb|index|filters|derived|jobs|admin|pacs)(\/|$)/.test(url.pathname)) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"Unauthorized","message":"log in first"}');
    return;
  }
  if (url.pathname.startsWith('/viewer/')) {
    const file = normalize(url.pathname.slice('/viewer/'.length) || 'index.html');
    if (file.startsWith('..')) { res.writeHead(400).end(); return; }
    try {
      const body = await readFile(join(root, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store',
        'content-security-policy': VIEWER_POLICY });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
    return;
  }
  // The page's origin is this server's; the store checks Origin/Referer of cookie-carrying writes against its own.
  const origin = req.headers.origin ? { origin: store.origin } : {};
  const referer = req.headers.referer ? { referer: store.origin + new URL(req.headers.referer).pathname } : {};
  const upstream = request({ host: store.hostname, port: store.port, path: req.url, method: req.method,
    headers: { ...req.headers, host: store.host, ...origin, ...referer,
      ...(devSession ? { authorization: 'Basic ' + Buffer.from(`${devBasic[0]}:${devBasic[1]}`).toString('base64') } : {}) } }, (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
  upstream.on('error', (e) => { res.writeHead(502).end(String(e)); });
  req.pipe(upstream);
}).listen(port, '127.0.0.1', () => console.log(`dev server: http://127.0.0.1:${port}/viewer/ -> ${store.href}`));
