// Saving a filtered result as a new DICOM instance in the store: POST /derived with the source, the frame, the window,
// the chain and the region; the store renders it again itself and answers with where the derived instance lives.
import { api } from '../api.js';
import { stepText, windowText, regionText } from './render.js';

/** → { path, studyUid, seriesUid, sopInstanceUid } */
export async function saveDerived(source, chain, region) {
  const body = { source: source.path, frame: source.frame ?? 0, filters: chain.map(stepText) };
  if (source.window) body.window = windowText(source.window);
  if (region) body.region = regionText(region);
  try {
    return await api('/derived', { method: 'POST', json: body, headers: { Accept: 'application/json' } });
  } catch (e) {
    // A store without the endpoint yet answers 404/405: say what is missing, not just "Not found".
    if (e.status === 404 || e.status === 405) {
      e.message = `This store cannot save derived images (POST /derived answered ${e.status}). ${e.message}`;
    }
    throw e;
  }
}
