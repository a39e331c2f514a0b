// The store's HTTP API from the browser: same-origin requests carrying the session cookie. A 401 means the session
// ended: the user is sent to the login page and comes back to where they were. Every failure becomes an ApiError
// with the store's own reason (its JSON "error"/"message", or its plain-text body), never a blank page.

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

let onUnauthorized = () => {};

/** Called with no arguments when the store answers 401 (set by the session module). */
export function setUnauthorizedHandler(f) {
  onUnauthorized = f;
}

/** A 401 seen outside api() (the image loader's own requests): the same way back through the login page. */
export function signalUnauthorized() {
  onUnauthorized();
}

/**
 * fetch() for the store: `json` sends a JSON body; `raw: true` returns the Response (for blobs, streams);
 * otherwise the parsed JSON (or text, or null for 204).
 */
export async function api(path, { method = 'GET', headers = {}, json, body, raw = false, signal, quiet401 = false } = {}) {
  const init = { method, credentials: 'same-origin', signal, headers: { 'X-Requested-With': 'MedJava', ...headers } };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers['Content-Type'] = 'application/json';
  } else if (body !== undefined) {
    init.body = body;
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, `The store did not answer (${e.message}). Is it running?`);
  }
  if (response.status === 401 && !quiet401) onUnauthorized();
  if (!response.ok && !(raw && response.status === 304)) throw await errorOf(response);
  if (raw) return response;
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  return type.includes('json') ? response.json() : response.text();
}

/** The store's reason for a failed response, as a sentence a person can read. */
export async function errorOf(response) {
  let text = '';
  try { text = await response.text(); } catch { /* body gone */ }
  return errorFrom(response.status, text);
}

/** The same from a status and a body already read (uploads go through XMLHttpRequest for their progress). */
export function errorFrom(status, text) {
  let reason = text;
  try {
    // The store's refusals are {"status", "error": the status phrase, "message": the reason}: the reason first.
    const j = JSON.parse(text);
    reason = j.message ?? j.error ?? j.reason ?? j.details ?? text;
  } catch { /* not JSON */ }
  if (typeof reason !== 'string') reason = JSON.stringify(reason);
  if (/<html/i.test(reason)) reason = reason.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  const what = {
    400: 'The store refused the request', 401: 'Please log in', 403: 'Your account may not do this',
    404: 'Not found', 409: 'Conflict', 412: 'Changed by someone else meanwhile', 413: 'Too large for the store',
    415: 'Not a type the store keeps', 422: 'The store could not read it', 502: 'The remote system did not answer',
    503: 'The store is not ready',
  }[status] ?? `The store answered ${status}`;
  const message = reason && reason.length < 600 ? `${what}: ${reason.trim()}` : what;
  return new ApiError(status, message, text);
}

/** QIDO-RS: an array of DICOM JSON objects. */
export async function qido(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x) => q.append(k, x));
    else if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  const s = q.toString();
  const answer = await api(`/dicomweb/${path}${s ? `?${s}` : ''}`, { headers: { Accept: 'application/dicom+json' } });
  return Array.isArray(answer) ? answer : [];
}

const TAGS = {
  PatientName: '00100010', PatientID: '00100020', PatientBirthDate: '00100030', PatientSex: '00100040',
  StudyInstanceUID: '0020000D', StudyDate: '00080020', StudyTime: '00080030', AccessionNumber: '00080050',
  StudyDescription: '00081030', ModalitiesInStudy: '00080061', NumberOfStudyRelatedSeries: '00201206',
  NumberOfStudyRelatedInstances: '00201208', SeriesInstanceUID: '0020000E', Modality: '00080060',
  SeriesNumber: '00200011', SeriesDescription: '0008103E', NumberOfSeriesRelatedInstances: '00201209',
  SOPInstanceUID: '00080018', SOPClassUID: '00080016', InstanceNumber: '00200013', NumberOfFrames: '00280008',
  Rows: '00280010', Columns: '00280011', RetrieveURL: '00081190', ReferringPhysicianName: '00080090',
};

/** The first value of an attribute of a DICOM JSON object, by keyword (person names as plain text). */
export function value(object, keyword) {
  const a = object?.[TAGS[keyword] ?? keyword];
  const v = a?.Value?.[0];
  if (v && typeof v === 'object' && 'Alphabetic' in v) return v.Alphabetic;
  return v;
}

export function values(object, keyword) {
  return object?.[TAGS[keyword] ?? keyword]?.Value ?? [];
}
