// For working on the web application without rebuilding the WAR: serves web/target/dev/viewer/ (rebuilt by
// `MEDJAVA_WEB_DEV=1 node scripts/build.mjs target/dev`) at /viewer/ and proxies every other path to a running
// store, so the page, its session cookie and the store's API share one origin as in production.
//   node scripts/dev-server.mjs http://127.0.0.1:8080 [port=8081]
// With MEDJAVA_DEV_BASIC=user:password:role every proxied request carries that Basic login and /auth/* is answered
// here (for a store built before browser sessions existed; development only).
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

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://x');
  if (devBasic && url.pathname.startsWith('/auth/')) {
    const me = JSON.stringify({ user: devBasic[0], role: devBasic[2] ?? 'admin', expires: new Date(Date.now() + 36e5).toISOString() });
    res.writeHead(url.pathname === '/auth/logout' ? 204 : 200, { 'content-type': 'application/json' });
    res.end(url.pathname === '/auth/logout' ? undefined : me);
    return;
  }
  if (url.pathname.startsWith('/viewer/')) {
    const file = normalize(url.pathname.slice('/viewer/'.length) || 'index.html');
    if (file.startsWith('..')) { res.writeHead(400).end(); return; }
    try {
      const body = await readFile(join(root, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
    return;
  }
  const upstream = request({ host: store.hostname, port: store.port, path: req.url, method: req.method,
    headers: { ...req.headers, host: store.host,
      ...(devBasic ? { authorization: 'Basic ' + Buffer.from(`${devBasic[0]}:${devBasic[1]}`).toString('base64') } : {}) } }, (r) => { res.writeHead(r.statusCode, r.headers); r.pipe(res); });
  upstream.on('error', (e) => { res.writeHead(502).end(String(e)); });
  req.pipe(upstream);
}).listen(port, '127.0.0.1', () => console.log(`dev server: http://127.0.0.1:${port}/viewer/ -> ${store.href}`));
