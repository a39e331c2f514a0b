// What the viewer shows, from the store: the series of a study (QIDO-RS), and for one series its instances' metadata
// (one WADO-RS metadata request for the whole series) joined with their store paths (the index), turned into one
// Cornerstone image id per frame.
//
// Image ids are `wadors:` frame URLs: the series metadata arrives in one request before any pixels, so the stack is
// ordered, the overlays are filled and the series strip is known at once, and each frame is fetched alone as stored
// (compressed frames decoded on the client). `wadouri:` (the whole Part 10 file from /images/{path}) is kept as an
// option (`loader=wadouri` in the view's address) — see web/bench/README.md for the measurements behind the choice.
import { api, qido, value } from '../api.js';

/** The series of a study, in series-number order. */
export async function studySeries(studyUid) {
  const list = await qido(`studies/${encodeURIComponent(studyUid)}/series`, {
    includefield: ['SeriesDescription', 'NumberOfSeriesRelatedInstances', 'Modality', 'SeriesNumber'] });
  return list.map((s) => ({
    uid: value(s, 'SeriesInstanceUID'), modality: value(s, 'Modality') ?? '', number: value(s, 'SeriesNumber'),
    description: value(s, 'SeriesDescription') ?? '', instances: Number(value(s, 'NumberOfSeriesRelatedInstances') ?? 0),
  })).sort((a, b) => (Number(a.number) || 0) - (Number(b.number) || 0) || String(a.uid).localeCompare(b.uid));
}

/** The study's own attributes (patient, date, description) for the overlays and the title. */
export async function studyInfo(studyUid) {
  const [s] = await qido('studies', { StudyInstanceUID: studyUid,
    includefield: ['PatientName', 'PatientID', 'PatientBirthDate', 'PatientSex', 'StudyDescription', 'AccessionNumber'] });
  if (!s) throw Object.assign(new Error(`The store has no study ${studyUid}.`), { status: 404 });
  return s;
}

const num = (m, tag) => Number(m?.[tag]?.Value?.[0]);

/**
 * One series ready for a stack viewport: { instances, frames } where frames[i] = { imageId, instance, frame (1-based) }
 * and instance = { uid, number, path, metadata, frames }.
 */
export async function loadSeries(studyUid, seriesUid, { loader = 'wadors', dicomImageLoader, signal } = {}) {
  const base = `${location.origin}/dicomweb/studies/${encodeURIComponent(studyUid)}/series/${encodeURIComponent(seriesUid)}`;
  const [metadata, indexed] = await Promise.all([
    api(`/dicomweb/studies/${encodeURIComponent(studyUid)}/series/${encodeURIComponent(seriesUid)}/metadata`,
      { headers: { Accept: 'application/dicom+json' }, signal }),
    api(`/index/series/${encodeURIComponent(seriesUid)}/instances`, { signal }),
  ]);
  const paths = new Map((Array.isArray(indexed) ? indexed : []).map((i) => [i.SOPInstanceUID, i.path]));
  const instances = (Array.isArray(metadata) ? metadata : []).map((m) => ({
    uid: value(m, 'SOPInstanceUID'), number: num(m, '00200013'), frames: Math.max(1, num(m, '00280008') || 1),
    position: m['00200032']?.Value?.map(Number), path: paths.get(value(m, 'SOPInstanceUID')), metadata: m,
  }));
  instances.sort(byPosition);
  const frames = [];
  for (const instance of instances) {
    for (let f = 1; f <= instance.frames; f++) {
      let imageId;
      if (loader === 'wadouri' && instance.path) {
        imageId = `wadouri:${location.origin}/images/${encodePath(instance.path)}${instance.frames > 1 ? `?frame=${f}` : ''}`;
      } else {
        imageId = `wadors:${base}/instances/${encodeURIComponent(instance.uid)}/frames/${f}`;
        dicomImageLoader?.wadors.metaDataManager.add(imageId, instance.metadata);
      }
      frames.push({ imageId, instance, frame: f });
    }
  }
  return { instances, frames };
}

/** Instance Number first; position along the slice normal when numbers tie or are missing. */
function byPosition(a, b) {
  const n = (Number.isFinite(a.number) ? a.number : Infinity) - (Number.isFinite(b.number) ? b.number : Infinity);
  if (n) return n;
  if (a.position && b.position) return a.position[2] - b.position[2];
  return String(a.uid).localeCompare(String(b.uid));
}

/** A store path with each segment percent-encoded (names may hold spaces, '#', '?'). */
export function encodePath(path) {
  return String(path).replace(/^\/?images\//, '').split('/').map(encodeURIComponent).join('/');
}
