// Where a filtered result is shown: drawn over the Cornerstone image with the same image-to-screen mapping (so zoom,
// pan, rotation and flips apply to it too, and the measurements stay on top), interpolated as the image is.
// Compare modes: after (the result over the image), before (the image alone), wipe (a slider uncovers the result
// from the left) and side by side (the image left, the result right, both following the same camera).
import { h } from '../ui.js';

export const MODES = { after: 'After', before: 'Before', wipe: 'Wipe', side: 'Side by side' };

export function createResultLayer(vp, stage) {
  const overlay = h('canvas', { class: 'result-layer', dataset: { test: 'filter-result' } });
  const sideCanvas = h('canvas', { class: 'result-layer' });
  const side = h('div', { class: 'side-pane', dataset: { test: 'filter-result-side' } }, sideCanvas,
    h('span', { class: 'side-label' }, 'filtered'));
  const slider = h('input', { class: 'wipe-slider', type: 'range', min: 0, max: 100, value: 50,
    'aria-label': 'Wipe position', dataset: { test: 'wipe-slider' }, oninput: () => draw() });
  // Under the annotations' SVG layer, over the image.
  const host = vp.element.querySelector('.viewport-element') ?? vp.element;
  host.insertBefore(overlay, host.querySelector('.svg-layer'));
  stage.append(side, slider);

  let result = null; // { bitmap, url, key }
  let mode = 'after';
  let stale = false;

  /** The 2D transform from image pixels to canvas pixels of a canvas the size of the viewport element. */
  function transform(width, height) {
    const dpr = window.devicePixelRatio || 1;
    const p0 = vp.imageToCanvas(0, 0), px = vp.imageToCanvas(width, 0), py = vp.imageToCanvas(0, height);
    return [(px[0] - p0[0]) / width * dpr, (px[1] - p0[1]) / width * dpr, (py[0] - p0[0]) / height * dpr,
      (py[1] - p0[1]) / height * dpr, p0[0] * dpr, p0[1] * dpr];
  }

  function paint(canvas, clipFraction = 1) {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(vp.element.clientWidth * dpr), hgt = Math.round(vp.element.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== hgt) Object.assign(canvas, { width: w, height: hgt });
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, hgt);
    if (!result) return;
    // The wipe's clip is undone after drawing: a clip stays on the context, and would cut the next paints (after the
    // wipe, in another mode) as well as their clearing.
    ctx.save();
    if (clipFraction < 1) {
      ctx.beginPath();
      ctx.rect(0, 0, w * clipFraction, hgt);
      ctx.clip();
    }
    const t = transform(result.bitmap.width, result.bitmap.height);
    ctx.setTransform(...t);
    // The same interpolation as the image under it: smooth, or each pixel a square.
    ctx.imageSmoothingEnabled = vp.smooth();
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(result.bitmap, 0, 0);
    ctx.restore();
    canvas.dataset.transform = t.join(',');
  }

  function draw() {
    const showing = !!result && !stale;
    overlay.hidden = !showing || mode === 'before' || mode === 'side';
    side.hidden = mode !== 'side';
    slider.hidden = !showing || mode !== 'wipe';
    stage.classList.toggle('side-by-side', mode === 'side');
    // The image's own inversion applies to the result too (the store renders in the image's polarity).
    const invert = vp.invertedByUser() ? 'invert(1)' : '';
    overlay.style.filter = invert;
    sideCanvas.style.filter = invert;
    if (!overlay.hidden) paint(overlay, mode === 'wipe' ? Number(slider.value) / 100 : 1);
    if (mode === 'side') {
      if (showing) paint(sideCanvas);
      else paint(Object.assign(sideCanvas, { width: sideCanvas.width })); // cleared
    }
    // What the layer holds, whichever compare mode shows it (the tests and the benchmark read these).
    overlay.dataset.state = !result ? 'none' : stale ? 'stale' : 'shown';
    overlay.dataset.src = result?.url ?? '';
  }

  return {
    /** A new result for the image on show; key says which frame/window/chain it was made for. */
    set(bitmap, url, key) {
      result?.bitmap.close?.();
      result = { bitmap, url, key };
      stale = false;
      draw();
    },
    clear() {
      result?.bitmap.close?.();
      result = null;
      draw();
    },
    /** The image on show no longer matches the result (another frame, another window): show the image alone. */
    setStale(value) {
      if (stale !== value) {
        stale = value;
        draw();
      }
    },
    key: () => result?.key ?? null,
    has: () => !!result,
    setMode(m) {
      mode = m;
      draw();
      // The viewport's width changes when the side pane comes or goes: fit the image to its new pane.
      const resized = (m === 'side') !== (stage.dataset.side === 'true');
      stage.dataset.side = String(m === 'side');
      if (resized) requestAnimationFrame(() => { vp.viewport.getRenderingEngine().resize(true, false); vp.fit(); draw(); });
    },
    mode: () => mode,
    /** Toggles before/after (the C key). */
    toggle() {
      this.setMode(mode === 'before' ? 'after' : 'before');
    },
    redraw: draw,
    destroy() {
      result?.bitmap.close?.();
      overlay.remove();
      side.remove();
      slider.remove();
    },
  };
}
