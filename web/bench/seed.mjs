// Fills a store with the studies the browser tests and the benchmark use, and writes a fixtures file in the format
// of the store's WebAppBrowserIT (so e2e tests and the bench run against a development store too):
//   mixed   one study (CT 128², MR 64², CR 1760², 30-frame US, JPEG 2000), copies of the samples with new UIDs
//   stack   a 100-image CT series (copies of CT_small, positions 2.5 mm apart)
//   ct512   CT_small upscaled to 512² (bilinear, pixel spacing divided by 4): the samples hold no 512² CT, and the
//           benchmark's "time to first image of a 512² CT" needs one; it is labelled as such in its description
// DCMTK's dcmodify writes the UIDs and attributes (the same way the IT's TestStudy does), dcmdump extracts pixels.
//   node bench/seed.mjs --store http://127.0.0.1:8090 --login admin:adminpw --prefix dev-webview \
//        --url http://127.0.0.1:8092 --out /tmp/fx-webview.json
import { execFileSync } from 'node:child_process';
import { mkdtempSync, copyFileSync, readFileSync, writeFileSync, chmodSync, accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({ options: {
  store: { type: 'string', default: 'http://127.0.0.1:8090' }, login: { type: 'string', default: 'admin:adminpw' },
  prefix: { type: 'string', default: 'dev-webview' }, url: { type: 'string' }, out: { type: 'string', default: '/tmp/fx-webview.json' },
  samples: { type: 'string', default: '/work/shared/testdata/dicom' }, count: { type: 'string', default: '100' },
} });
const auth = 'Basic ' + Buffer.from(o.login).toString('base64');
const work = mkdtempSync(join(tmpdir(), 'medjava-seed-'));
const uid = () => '2.25.' + BigInt('0x' + randomBytes(15).toString('hex')).toString();

// DCMTK's own tool, not another of the same name first on PATH (pynetdicom and dcm4che ship storescu, dcmdump, ...):
// in MEDJAVA_DCMTK_DIR if set, else the first on PATH, /usr/bin, /usr/local/bin whose --version is DCMTK's
// ("$dcmtk: <tool> v..."); the store's tests find theirs the same way (filter-testkit's DcmtkTools).
function dcmtk(tool) {
  const set = process.env.MEDJAVA_DCMTK_DIR;
  const dirs = set ? [set, join(set, 'bin')] : [...(process.env.PATH || '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  const refused = [];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = resolve(dir, tool);
    try { accessSync(candidate, constants.X_OK); } catch { continue; }
    let version;
    try { version = execFileSync(candidate, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }); }
    catch (e) { version = String(e.stdout || e.message); }
    if (version.startsWith('$dcmtk: ')) return candidate;
    refused.push(`${candidate} (its --version says: ${version.split('\n')[0]})`);
  }
  throw new Error(`DCMTK's ${tool} is not in ${set ? set + ' (MEDJAVA_DCMTK_DIR)' : 'PATH, /usr/bin or /usr/local/bin'}`
    + (refused.length ? `; not DCMTK's: ${refused.join('; ')}` : '') + '. Install DCMTK or set MEDJAVA_DCMTK_DIR.');
}
const DCMODIFY = dcmtk('dcmodify'), DCMDUMP = dcmtk('dcmdump');

function modify(file, attrs, extra = []) {
  chmodSync(file, 0o644);
  execFileSync(DCMODIFY, ['-nb', ...extra, ...Object.entries(attrs).flatMap(([k, v]) => ['-i', `${k}=${v}`]), file]);
}
async function put(path, file) {
  const r = await fetch(`${o.store}/images/${path}`, { method: 'PUT', body: readFileSync(file),
    headers: { authorization: auth, 'content-type': 'application/dicom' } });
  if (![201, 204].includes(r.status)) throw new Error(`PUT ${path}: ${r.status} ${await r.text()}`);
  return '/images/' + path;
}

// One study of each kind a reader meets.
const mixed = { patientId: 'DEV-WEBVIEW-1', studyUid: uid(), instances: [] };
for (const sample of ['CT_small.dcm', 'MR_small.dcm', 'RG3_UNCR.dcm', 'examples_ybr_color.dcm', 'JPEG2000.dcm']) {
  const seriesUid = uid(), sopInstanceUid = uid();
  const file = join(work, sopInstanceUid + '.dcm');
  copyFileSync(join(o.samples, sample), file);
  modify(file, { '(0010,0020)': mixed.patientId, '(0020,000D)': mixed.studyUid, '(0020,000E)': seriesUid,
    '(0008,0018)': sopInstanceUid });
  const path = await put(`${o.prefix}/mixed/${sample}`, file);
  mixed.instances.push({ sample, path, seriesUid, sopInstanceUid });
}

// The stack: n copies of CT_small in one series.
const count = Number(o.count);
const stack = { patientId: 'DEV-WEBVIEW-2', studyUid: uid(), seriesUid: uid(), count };
for (let n = 1; n <= count; n++) {
  const file = join(work, `stack-${n}.dcm`);
  copyFileSync(join(o.samples, 'CT_small.dcm'), file);
  modify(file, { PatientID: stack.patientId, PatientName: 'Stack^Hundred', StudyInstanceUID: stack.studyUid,
    StudyDate: '20240102', SeriesInstanceUID: stack.seriesUid, SeriesNumber: 7, SOPInstanceUID: uid(),
    InstanceNumber: n, ImagePositionPatient: `0\\0\\${n * 2.5}`, SliceLocation: n * 2.5 });
  await put(`${o.prefix}/stack/${n}.dcm`, file);
}

// A 512² CT: CT_small's pixels upscaled 4× bilinearly (values stay in the original's range).
const src = join(work, 'ct512.dcm');
copyFileSync(join(o.samples, 'CT_small.dcm'), src);
execFileSync(DCMDUMP, ['+W', work, src]);
const raw = readFileSync(src + '.0.raw');
const S = 128, D = 512, inPx = new Int16Array(raw.buffer, raw.byteOffset, S * S), out = new Int16Array(D * D);
for (let y = 0; y < D; y++) {
  const fy = Math.min(S - 1, Math.max(0, (y + 0.5) / 4 - 0.5)), y0 = Math.floor(fy), y1 = Math.min(S - 1, y0 + 1), ty = fy - y0;
  for (let x = 0; x < D; x++) {
    const fx = Math.min(S - 1, Math.max(0, (x + 0.5) / 4 - 0.5)), x0 = Math.floor(fx), x1 = Math.min(S - 1, x0 + 1), tx = fx - x0;
    const top = inPx[y0 * S + x0] * (1 - tx) + inPx[y0 * S + x1] * tx;
    const bottom = inPx[y1 * S + x0] * (1 - tx) + inPx[y1 * S + x1] * tx;
    out[y * D + x] = Math.round(top * (1 - ty) + bottom * ty);
  }
}
writeFileSync(join(work, 'ct512.raw'), Buffer.from(out.buffer));
const ct512 = { patientId: 'DEV-WEBVIEW-3', studyUid: uid(), seriesUid: uid(), sopInstanceUid: uid() };
modify(src, { PatientID: ct512.patientId, PatientName: 'Bench^CT512', StudyInstanceUID: ct512.studyUid,
  SeriesInstanceUID: ct512.seriesUid, SOPInstanceUID: ct512.sopInstanceUid, Rows: 512, Columns: 512,
  PixelSpacing: '0.165367\\0.165367', SeriesDescription: 'CT_small upscaled to 512x512 (bilinear) for the viewer benchmark' },
  ['-if', `PixelData=${join(work, 'ct512.raw')}`]);
ct512.path = await put(`${o.prefix}/ct512/ct512.dcm`, src);

const [user, password] = o.login.split(':');
const fixtures = { url: o.url ?? o.store, users: { [user]: { password, role: 'admin' } }, uploadLimit: 24 * 1024 * 1024,
  mixed, stack, ct512, scratch: `${o.prefix}/scratch`, samples: resolve(o.samples), work };
writeFileSync(o.out, JSON.stringify(fixtures, null, 1));
console.log(`seeded ${o.store}/images/${o.prefix}/ — fixtures in ${o.out}`);
