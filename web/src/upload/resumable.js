// Large files go to the store as resumable uploads (tus 1.0 at /uploads): the file's SHA-256 first (the store checks
// the whole object against it before storing anything), then chunks PATCHed at the offset the store confirms. A
// chunk lost to the network is not lost work: after a pause the store is asked (HEAD) how much it holds, and sending
// goes on from there. The SHA-256 is computed incrementally with hash-wasm, one slice at a time: Web Crypto's
// digest() takes the whole file as one buffer, which for a 1 GiB file is 1 GiB of page memory.
import { createSHA256 } from 'hash-wasm';

/** Files above this go as resumable uploads; smaller ones in one PUT (a retry of those costs little). */
export const RESUMABLE_THRESHOLD = 8 * 1024 * 1024;
/** One PATCH: what a dropped connection costs at most. */
export const CHUNK = 4 * 1024 * 1024;
/** Pauses before asking again after a failure (network, 409/423 from a chunk still in flight, 5xx). */
export const RETRY_DELAYS = [500, 1000, 2000, 4000, 8000, 15000];
const HASH_SLICE = 8 * 1024 * 1024;

/** The file's SHA-256 in hex, read slice by slice; `onProgress(bytesHashed)`. */
export async function sha256Hex(file, { onProgress, signal } = {}) {
  const hasher = await createSHA256();
  hasher.init();
  for (let at = 0; at < file.size; at += HASH_SLICE) {
    if (signal?.aborted) throw new DOMException('cancelled', 'AbortError');
    hasher.update(new Uint8Array(await file.slice(at, at + HASH_SLICE).arrayBuffer()));
    onProgress?.(Math.min(file.size, at + HASH_SLICE));
  }
  return hasher.digest('hex');
}

function b64(text) {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('cancelled', 'AbortError')); },
      { once: true });
  });
}

const retryable = (status) => status === 0 || status === 409 || status === 423 || (status >= 500 && status !== 507);

/**
 * Uploads `file` to `path` under /images/ resumably. `send` is transport's XMLHttpRequest helper; `ok(r)` and
 * `failure(r)` turn the final answer into the queue's result. `replace: false` asks the store to keep a file
 * already at the path (metadata if-none-match: *, 412 at the end).
 */
export async function resumableFile(path, file, { replace, onProgress, onPhase, signal, send, ok, failure }) {
  const headers = { 'Tus-Resumable': '1.0.0', 'X-Requested-With': 'MedJava' };
  onPhase?.('checksum');
  const sha256 = await sha256Hex(file, { signal });
  onPhase?.('sending');
  const metadata = [`path ${b64(path)}`, `sha256 ${b64(sha256)}`, `filename ${b64(file.name ?? '')}`];
  if (!replace) metadata.push(`if-none-match ${b64('*')}`);
  const created = await send({ method: 'POST', url: '/uploads', signal, body: null,
    headers: { ...headers, 'Upload-Length': String(file.size), 'Upload-Metadata': metadata.join(',') } });
  if (created.status !== 201) return failure(created);
  const url = created.header('Location');
  try {
    let offset = 0;
    let failures = 0;
    for (;;) {
      const end = Math.min(file.size, offset + CHUNK);
      const from = offset;
      const r = await send({ method: 'PATCH', url, signal, body: file.slice(from, end),
        headers: { ...headers, 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' },
        onProgress: (loaded) => onProgress?.(from + loaded, file.size) });
      if (r.status === 204) {
        offset = Number(r.header('Upload-Offset'));
        failures = 0;
        onProgress?.(offset, file.size);
        if (offset === file.size) return ok(r);
        continue;
      }
      if (!retryable(r.status) || failures >= RETRY_DELAYS.length) return failure(r);
      // Lost or refused for now: wait, then ask the store how much it holds and go on from there.
      await pause(RETRY_DELAYS[failures++], signal);
      const status = await send({ method: 'HEAD', url, signal, body: null, headers });
      if (status.status === 200) offset = Number(status.header('Upload-Offset'));
      else if (!retryable(status.status)) return failure(status);
      onProgress?.(offset, file.size);
    }
  } catch (e) {
    // Cancelled: abandon the upload (tus termination), so the store does not keep the part until it expires.
    if (e.name === 'AbortError') {
      fetch(url, { method: 'DELETE', headers, credentials: 'same-origin' }).catch(() => {});
    }
    throw e;
  }
}
