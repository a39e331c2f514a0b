// Small formatting shared by the console's tabs.

/** An ISO-8601 duration (PT1.234S, as JSON-B writes java.time.Duration) or milliseconds, for people. */
export function formatDuration(d) {
  let ms = typeof d === 'number' ? d : NaN;
  if (typeof d === 'string') {
    const m = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?$/.exec(d);
    if (!m) return d;
    ms = ((+(m[1] ?? 0) * 24 + +(m[2] ?? 0)) * 60 + +(m[3] ?? 0)) * 60000 + +(m[4] ?? 0) * 1000;
  }
  if (!Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function formatTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** A DICOM date (YYYYMMDD) as YYYY-MM-DD. */
export function formatDicomDate(d) {
  return d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}` : (d ?? '');
}

/** A DICOM person name (Family^Given^Middle) as "Family, Given Middle". */
export function formatName(n) {
  if (!n) return '';
  const [family, ...rest] = String(n).split('^');
  const given = rest.filter(Boolean).join(' ');
  return given ? `${family}, ${given}` : family;
}
