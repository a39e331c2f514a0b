// What the user handed us — dropped files and whole folders, or picked files and folders — as one flat list of
// { file, path } where path is relative to what was dropped (folder structure kept), plus what could not be read.

/**
 * The dropped items. Must be called inside the drop handler: a DataTransfer's items are gone once the event
 * returns, so the entries are taken synchronously and walked afterwards.
 */
export function fromDrop(dataTransfer) {
  const entries = [];
  const loose = [];
  for (const item of dataTransfer.items ?? []) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (!entries.length && !loose.length) loose.push(...(dataTransfer.files ?? []));
  return (async () => {
    const out = { files: loose.map((file) => ({ file, path: file.name })), unreadable: [] };
    for (const entry of entries) await walk(entry, '', out);
    return out;
  })();
}

/** Files from <input type=file> (with webkitdirectory, each carries its path inside the chosen folder). */
export function fromInput(fileList) {
  return {
    files: [...fileList].map((file) => ({ file, path: file.webkitRelativePath || file.name })),
    unreadable: [],
  };
}

async function walk(entry, prefix, out) {
  const path = prefix + entry.name;
  if (entry.isFile) {
    try {
      out.files.push({ file: await new Promise((ok, fail) => entry.file(ok, fail)), path });
    } catch (e) {
      out.unreadable.push({ path, reason: `the browser could not read it (${e?.message ?? e})` });
    }
    return;
  }
  if (!entry.isDirectory) return;
  const reader = entry.createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    let batch;
    try {
      batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    } catch (e) {
      out.unreadable.push({ path: path + '/', reason: `the browser could not list this folder (${e?.message ?? e})` });
      return;
    }
    if (!batch.length) return;
    for (const child of batch) await walk(child, path + '/', out);
  }
}
