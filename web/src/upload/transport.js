// One file to the store, with upload progress: XMLHttpRequest, because fetch() reports no upload progress (and its
// streaming request bodies need HTTP/2 in Chromium). Two ways in:
//   PUT /images/{path}        the file at a path of our choosing (folder structure kept); DICOM, PNG, JPEG, GIF
//   POST /dicomweb/studies    STOW-RS: DICOM only, filed like objects received from the network
//                             (dicom/{PatientID}/{study}/{series}/{instance}.dcm), duplicates refused
// Each answers { status, outcome: 'stored'|'refused'|'failed', reason, href?, study? }.
import { errorFrom } from '../api.js';
import { RESUMABLE_THRESHOLD, resumableFile } from './resumable.js';

/** The request itself; rejects with an AbortError when `signal` fires. */
function send({ method, url, headers, body, onProgress, signal }) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : body.size);
    xhr.onload = () => resolve({
      status: xhr.status, text: xhr.responseText, header: (name) => xhr.getResponseHeader(name),
    });
    xhr.onerror = () => resolve({ status: 0, text: '' });
    xhr.ontimeout = () => resolve({ status: 0, text: '' });
    const abort = () => xhr.abort();
    xhr.onabort = () => reject(new DOMException('cancelled', 'AbortError'));
    signal?.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
}

/** The path under /images/ as a URL: each segment encoded (spaces, '#', '?' and non-ASCII names survive). */
export function imagesUrl(path) {
  return '/images/' + path.split('/').map(encodeURIComponent).join('/');
}

/**
 * PUT one file. `replace: false` sends If-None-Match: * so that a file already at that path is kept (412).
 * The body goes as application/octet-stream: the store identifies it by content and checks the name's extension.
 */
export async function putFile(path, file, { replace = false, onProgress, signal } = {}) {
  if (file.size > RESUMABLE_THRESHOLD) return putResumably(path, file, { replace, onProgress, signal });
  const headers = { 'Content-Type': 'application/octet-stream', 'X-Requested-With': 'MedJava' };
  if (!replace) headers['If-None-Match'] = '*';
  const r = await send({ method: 'PUT', url: imagesUrl(path), headers, body: file, onProgress, signal });
  if (r.status === 201 || r.status === 204) {
    return { status: r.status, outcome: 'stored', replaced: r.status === 204, href: imagesUrl(path) };
  }
  if (r.status === 412) {
    return { status: 412, outcome: 'refused', reason: 'a file is stored at this path already; kept as it was '
      + '(tick "Replace files that exist" to overwrite)' };
  }
  return failure(r);
}

/**
 * A large file as a resumable upload (resumable.js): the same answers as putFile. Without `replace`, a file at the
 * path is found with a HEAD before the file is hashed and sent (and the store checks again when it is complete).
 */
async function putResumably(path, file, { replace, onProgress, signal }) {
  if (!replace) {
    const there = await send({ method: 'HEAD', url: imagesUrl(path), headers: { 'X-Requested-With': 'MedJava' },
      body: null, signal });
    if (there.status === 200) return exists();
  }
  return resumableFile(path, file, { replace, onProgress, signal, send,
    ok: () => ({ status: 204, outcome: 'stored', href: imagesUrl(path) }),
    failure: (r) => {
      if (r.status === 412) return exists();
      if (r.status === 460) {
        return { status: 460, outcome: 'failed', reason: `${errorFrom(r.status, r.text).message} (the file changed `
          + 'while it was sent, or was damaged on the way; nothing was stored)' };
      }
      return failure(r);
    } });
}

function exists() {
  return { status: 412, outcome: 'refused', reason: 'a file is stored at this path already; kept as it was '
    + '(tick "Replace files that exist" to overwrite)' };
}

/** STOW-RS with one instance per request, so that each file has its own progress and its own answer. */
export async function stowFile(file, { onProgress, signal } = {}) {
  const boundary = 'medjava-' + crypto.randomUUID();
  const body = new Blob([`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`, file, `\r\n--${boundary}--\r\n`]);
  const headers = {
    'Content-Type': `multipart/related; type="application/dicom"; boundary=${boundary}`,
    Accept: 'application/dicom+json', 'X-Requested-With': 'MedJava',
  };
  const r = await send({ method: 'POST', url: '/dicomweb/studies', headers, body, onProgress, signal });
  if (r.status === 200) {
    const answer = parse(r.text);
    const ref = answer?.['00081199']?.Value?.[0];
    return {
      status: 200, outcome: 'stored', href: ref?.['00081190']?.Value?.[0],
      study: studyOf(answer?.['00081190']?.Value?.[0] ?? ref?.['00081190']?.Value?.[0]),
    };
  }
  if (r.status === 202 || r.status === 409) {
    // One part per request: its FailureReason code, and the store's words in the Warning header.
    const failed = parse(r.text)?.['00081198']?.Value?.[0];
    const code = failed?.['00081197']?.Value?.[0];
    const words = /"(.*)"/.exec(r.header('Warning') ?? '')?.[1];
    return { status: r.status, outcome: 'refused',
      reason: `${words ?? 'refused'}${code !== undefined ? ` (DICOM failure reason ${hex(code)}${FAILURE[code] ? ': ' + FAILURE[code] : ''})` : ''}` };
  }
  return failure(r);
}

const FAILURE = { 0x0110: 'processing failure', 0x0111: 'duplicate SOP instance', 0x0122: 'SOP class not supported',
  0xA700: 'out of resources', 0xA900: 'data set does not match SOP class', 0xC000: 'cannot understand' };

function hex(n) {
  return n.toString(16).toUpperCase().padStart(4, '0');
}

function studyOf(retrieveUrl) {
  return /\/studies\/([0-9.]+)/.exec(retrieveUrl ?? '')?.[1];
}

function parse(text) {
  try { return JSON.parse(text); } catch { return null; }
}

/**
 * A status the upload did not succeed with. The store's refusals of the file itself (400 bad name, 413 too large,
 * 415 wrong type, 422 undecodable, 409) are final; the rest (no answer, 5xx) may succeed when tried again.
 */
function failure(r) {
  if (r.status === 0) {
    return { status: 0, outcome: 'failed', reason: 'the connection broke off before the store answered (network, or '
      + 'the store stopped); try again' };
  }
  const reason = errorFrom(r.status, r.text).message;
  const final = [400, 403, 409, 413, 415, 422].includes(r.status);
  return { status: r.status, outcome: final ? 'refused' : 'failed', reason };
}
