// Window presets by modality. CT values are Hounsfield units and mean the same on every scanner, so CT gets the
// usual named windows; CR/DX, MR, US and the rest have no absolute scale, so they get only the image's own windows
// (VOI LUT module) and its full range.

const CT = [
  { name: 'Soft tissue', center: 40, width: 400 },
  { name: 'Lung', center: -600, width: 1500 },
  { name: 'Bone', center: 400, width: 1800 },
  { name: 'Brain', center: 40, width: 80 },
  { name: 'Subdural', center: 75, width: 215 },
  { name: 'Stroke', center: 40, width: 40 },
  { name: 'Mediastinum', center: 50, width: 350 },
  { name: 'Abdomen', center: 60, width: 400 },
  { name: 'Liver', center: 60, width: 160 },
];

/**
 * The presets offered for an image: [{ name, center, width, key }] where key is the digit that applies it. The
 * image's own windows come first (key 0 = the first of them), then the full range, then the CT windows (1–9).
 */
export function presetsFor(modality, viewport) {
  const own = viewport.ownWindows().map((w, i) => ({
    name: w.name ? `Image: ${w.name}` : `Image window${viewport.ownWindows().length > 1 ? ` ${i + 1}` : ''}`,
    center: w.center, width: w.width,
  }));
  const full = viewport.fullRange();
  const list = [...own, ...(full ? [{ name: 'Full range', ...full }] : [])];
  list.forEach((p, i) => { p.key = i === 0 ? '0' : null; });
  if (modality === 'CT') CT.forEach((p, i) => list.push({ ...p, key: String(i + 1) }));
  return list;
}

export function formatWindow(w) {
  if (!w) return '';
  const r = (x) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10) / 10);
  return `${r(w.center)} / ${r(w.width)}`;
}
