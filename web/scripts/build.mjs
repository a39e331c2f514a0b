// Bundles MedJava's browser application with esbuild into the store's static resources:
//   <out>/viewer/           index.html, app.js, app.css, decodeImageFrameWorker.js (Cornerstone's codec worker)
//   <out>/viewer/wasm/      the codecs' WebAssembly files (the loader is told this base: wasmBasePath)
//   <out>/api/              the API browser: Swagger UI (swagger-ui-dist, as published) and our page for it
// <out> defaults to target/classes/META-INF/medjava-web (packaged in the web JAR the WAR serves).
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, rmSync, readdirSync, copyFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(web, 'target/classes/META-INF/medjava-web'), 'viewer');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'wasm'), { recursive: true });

// The codecs' Emscripten glue has Node code paths (require('fs'), 'path', ...) that never run in a browser.
const nodeBuiltinsAway = {
  name: 'node-builtins-away',
  setup(build) {
    build.onResolve({ filter: /^(fs|path|crypto|url|module|worker_threads|node:.*)$/ }, (args) => ({
      path: args.path, namespace: 'empty',
    }));
    build.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export default {};', loader: 'js' }));
  },
};
// `new URL('@cornerstonejs/codec-x/decodewasm', import.meta.url)` names a bare package path no server has; the
// loader fetches from wasmBasePath instead, so the URL only needs to parse.
const common = {
  bundle: true, format: 'esm', target: 'es2022', sourcemap: false, minify: process.env.MEDJAVA_WEB_DEV !== '1',
  legalComments: 'linked', plugins: [nodeBuiltinsAway], logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};
await esbuild.build({
  ...common,
  entryPoints: { app: join(web, 'src/main.js') },
  outdir: out,
  loader: { '.css': 'css' },
});
await esbuild.build({
  ...common,
  entryPoints: { decodeImageFrameWorker: join(web, 'node_modules/@cornerstonejs/dicom-image-loader/dist/esm/decodeImageFrameWorker.js') },
  outdir: out,
});
for (const codec of ['codec-charls', 'codec-openjpeg', 'codec-libjxl', 'codec-libjpeg-turbo-8bit', 'codec-openjph']) {
  const dist = join(web, 'node_modules/@cornerstonejs', codec, 'dist');
  for (const f of readdirSync(dist).filter((f) => f.endsWith('_decode.wasm') || f === 'openjphjs.wasm')) {
    copyFileSync(join(dist, f), join(out, 'wasm', f));
  }
}
cpSync(join(web, 'src/static'), out, { recursive: true });
console.log(`web: bundled into ${out}`);

// The API browser needs no bundling: swagger-ui-dist's standalone bundle and styles, its licence, our page.
const api = resolve(out, '..', 'api');
rmSync(api, { recursive: true, force: true });
mkdirSync(api, { recursive: true });
const swaggerUi = join(web, 'node_modules/swagger-ui-dist');
for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png', 'LICENSE', 'NOTICE']) {
  copyFileSync(join(swaggerUi, f), join(api, f === 'LICENSE' || f === 'NOTICE' ? `${f}.txt` : f));
}
cpSync(join(web, 'src/api-browser'), api, { recursive: true });
console.log(`web: API browser into ${api}`);
