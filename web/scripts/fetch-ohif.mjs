// Packages the prebuilt OHIF viewer (@ohif/app, pinned in package.json "medjava.ohif") to be served by the store
// at /ohif/:
//  - the tarball comes from the npm registry through `npm pack` (npm's cache makes repeat builds offline) and
//    must match the pinned sha512 integrity, or the build fails;
//  - the AI runtime (dist/ort, 136 MB, for OHIF's optional segmentation models) and source maps are left out;
//  - the app was built for the site root: its absolute paths are rebased to /ohif/;
//  - app-config.js is ours (ohif/app-config.js): OHIF's shipped data-source settings, pointed at the store's
//    DICOMweb on the same origin; the service-worker loader (which may import from a CDN) is replaced.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(web, 'target/classes/META-INF/medjava-web'), 'ohif');
const BASE = '/ohif/';
const pin = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8')).medjava.ohif;

const cache = join(web, 'target/ohif-cache');
mkdirSync(cache, { recursive: true });
const tgz = join(cache, `ohif-app-${pin.version}.tgz`);
if (!existsSync(tgz) || integrity(tgz) !== pin.integrity) {
  execFileSync('npm', ['pack', `${pin.package}@${pin.version}`, '--pack-destination', cache, '--silent'],
    { stdio: ['ignore', 'ignore', 'inherit'] });
}
const actual = integrity(tgz);
if (actual !== pin.integrity) {
  throw new Error(`${pin.package}@${pin.version}: integrity ${actual} is not the pinned ${pin.integrity}`);
}

const unpacked = join(cache, 'unpacked');
rmSync(unpacked, { recursive: true, force: true });
mkdirSync(unpacked);
execFileSync('tar', ['xzf', tgz, '-C', unpacked, '--exclude=package/dist/ort', '--exclude=*.map']);
rmSync(out, { recursive: true, force: true });
copyTree(join(unpacked, 'package/dist'), out);

// Rebase the root-relative paths the build baked in.
for (const file of walk(out)) {
  if (file.endsWith('.js')) {
    rewrite(file, (s) => s.replaceAll('__webpack_require__.p = "/"', `__webpack_require__.p = "${BASE}"`));
  } else if (file.endsWith('.css')) {
    rewrite(file, (s) => s.replaceAll('url(/', `url(${BASE}`));
  }
}
rewrite(join(out, 'index.html'), (s) => s
  .replaceAll('href="/', `href="${BASE}`).replaceAll('src="/', `src="${BASE}`)
  .replace('<head>', `<head><script>window.PUBLIC_URL = '${BASE}';</script>`));
rewrite(join(out, 'manifest.json'), (s) => s.replaceAll('"/assets/', `"${BASE}assets/`));
copyFileSync(join(web, 'ohif/app-config.js'), join(out, 'app-config.js'));
writeFileSync(join(out, 'init-service-worker.js'),
  '// MedJava: no service worker (the store sets caching itself); unregister any left from elsewhere.\n'
  + "if ('serviceWorker' in navigator) navigator.serviceWorker.getRegistrations()"
  + '.then((rs) => rs.forEach((r) => r.unregister()));\n');
for (const f of ['sw.js', '_headers', '_redirects', 'serve.json', 'google.js']) rmSync(join(out, f), { force: true });
writeFileSync(join(out, 'VERSION'), `${pin.package}@${pin.version}\n`);
console.log(`ohif: ${pin.package}@${pin.version} into ${out}`);

function integrity(file) {
  return 'sha512-' + createHash('sha512').update(readFileSync(file)).digest('base64');
}
function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p); else yield p;
  }
}
function copyTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name), dst = join(to, name);
    if (statSync(src).isDirectory()) copyTree(src, dst); else copyFileSync(src, dst);
  }
}
function rewrite(file, f) {
  writeFileSync(file, f(readFileSync(file, 'utf8')));
}
