// The upload queue: every file the user gave, its state and progress, at most `concurrency` requests at once (the
// store validates and fsyncs each file; more parallel requests only compete for its disk), each one cancellable.
// Files are refused here without sending only for reasons known for certain before sending: a hidden name, not
// DICOM on the STOW-RS way, or larger than the store's upload limit once a 413 has told us that limit.
// States: waiting → sending → stored | refused (final: the store's reason) | failed (may be retried) | cancelled.
import { putFile, stowFile } from './transport.js';
import { formatBytes } from '../ui.js';

export const FINAL = new Set(['stored', 'refused', 'skipped']);
let nextId = 1;

export class UploadQueue extends EventTarget {
  constructor({ concurrency = 3 } = {}) {
    super();
    this.concurrency = concurrency;
    this.items = [];
    this.running = 0;
    this.limit = null; // the store's upload limit in bytes, once a 413 named it
    this.stopped = null; // why sending stopped for good (the session ended)
    this.cursor = 0; // items before it are not waiting (a dropped CD holds thousands of files)
  }

  /**
   * Queues files: `mode` 'put' (to `directory`/path) or 'stow'; `replace` lets a PUT overwrite.
   * Returns the new items.
   */
  add(files, { mode, directory, replace }) {
    const added = files.map(({ file, path }) => {
      const item = { id: nextId++, path, file, size: file.size, mode, replace, directory, loaded: 0, state: 'waiting',
        target: mode === 'put' ? `${directory}/${path}` : null, reason: '', href: null, study: null };
      const hidden = path.split('/').find((s) => s.startsWith('.'));
      if (hidden) this.settle(item, 'skipped', `not sent: "${hidden}" is a hidden name (starts with "."), which the `
        + 'store does not keep');
      return item;
    });
    this.items.push(...added);
    this.emit('added', added);
    this.pump();
    return added;
  }

  /** Lists a file that could not even be read, with why. */
  skip(path, reason, { mode, directory }) {
    const item = { id: nextId++, path, file: null, size: 0, mode, directory, loaded: 0, state: 'skipped', reason,
      target: null };
    this.items.push(item);
    this.emit('added', [item]);
  }

  /** Cancels one file (running or waiting), or everything not yet finished. */
  cancel(item) {
    if (item.state === 'sending') item.controller.abort();
    else if (item.state === 'waiting') this.settle(item, 'cancelled', 'cancelled before it was sent');
  }

  cancelAll() {
    this.items.forEach((i) => this.cancel(i));
  }

  /** Sends again what failed (no answer, 5xx) or was cancelled. */
  retry() {
    this.stopped = null;
    this.cursor = 0;
    for (const item of this.items) {
      if (item.state === 'failed' || item.state === 'cancelled') {
        Object.assign(item, { state: 'waiting', loaded: 0, reason: '', status: undefined });
        this.emit('item', item);
      }
    }
    this.pump();
  }

  /** Forgets finished files (the list is cleared for the next batch). */
  clearFinished() {
    this.items = this.items.filter((i) => i.state === 'waiting' || i.state === 'sending');
    this.cursor = 0;
    this.emit('added', []);
  }

  get busy() {
    return this.items.some((i) => i.state === 'waiting' || i.state === 'sending');
  }

  counts() {
    const c = { all: this.items.length, waiting: 0, sending: 0, stored: 0, refused: 0, skipped: 0, failed: 0,
      cancelled: 0, bytes: 0, sent: 0 };
    for (const i of this.items) {
      c[i.state]++;
      if (i.state !== 'skipped') {
        c.bytes += i.size;
        c.sent += i.state === 'stored' ? i.size : i.loaded;
      }
    }
    return c;
  }

  pump() {
    while (!this.stopped && this.running < this.concurrency) {
      while (this.cursor < this.items.length && this.items[this.cursor].state !== 'waiting') this.cursor++;
      const item = this.items[this.cursor];
      if (!item) break;
      if (this.limit !== null && item.size > this.limit) {
        this.settle(item, 'refused', `not sent: ${formatBytes(item.size)} (${item.size} bytes) is over the store's `
          + `upload limit of ${formatBytes(this.limit)} (${this.limit} bytes, medjava.upload.max-bytes), as the store `
          + 'answered for an earlier file');
        continue;
      }
      this.running++;
      this.sendOne(item).finally(() => {
        this.running--;
        this.pump();
        if (!this.busy) this.emit('drained');
      });
    }
  }

  async sendOne(item) {
    item.state = 'sending';
    item.controller = new AbortController();
    this.emit('item', item);
    const options = {
      replace: item.replace, signal: item.controller.signal,
      onProgress: (loaded) => { item.loaded = loaded; this.emit('progress', item); },
    };
    try {
      if (item.mode === 'stow' && !(await isPart10(item.file))) {
        this.settle(item, 'refused', 'not sent: not a DICOM Part 10 file (no "DICM" after the 128-byte preamble); '
          + 'STOW-RS takes DICOM only — upload PNG, JPEG and GIF into a folder');
        return;
      }
      const r = item.mode === 'stow' ? await stowFile(item.file, options) : await putFile(item.target, item.file, options);
      item.status = r.status;
      item.href = r.href ?? null;
      item.study = r.study ?? null;
      item.replaced = r.replaced;
      if (r.status === 413) this.learnLimit(r.reason);
      if (r.status === 401) {
        this.stopped = 'Your session ended. Log in again in another tab (this page keeps its list; reloading it would '
          + 'lose the files), then "Try again" sends the rest.';
        this.emit('stopped', this.stopped);
      }
      this.settle(item, r.outcome, r.reason ?? '');
    } catch (e) {
      if (e.name === 'AbortError') this.settle(item, 'cancelled', `cancelled after ${formatBytes(item.loaded)} of `
        + `${formatBytes(item.size)}; nothing of it was kept`);
      else this.settle(item, 'failed', `the browser could not send it: ${e.message}`);
    } finally {
      item.controller = null;
    }
  }

  learnLimit(reason) {
    const m = /upload limit of (\d+) bytes/.exec(reason ?? '');
    if (m) this.limit = Number(m[1]);
  }

  settle(item, state, reason) {
    Object.assign(item, { state, reason });
    if (state === 'stored') item.loaded = item.size;
    this.emit('item', item);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/** Whether a file is DICOM Part 10: "DICM" after its 128-byte preamble. */
async function isPart10(file) {
  if (file.size < 132) return false;
  const head = new Uint8Array(await file.slice(128, 132).arrayBuffer());
  return String.fromCharCode(...head) === 'DICM';
}
