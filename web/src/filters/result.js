// Where a filtered result is shown: drawn over the Cornerstone image with the same image-to-screen mapping (so zoom,
// pan, rotation and flips apply to it too, and the measurements stay on top), interpolated as the image is.
// Compare modes: after (the result over the image), before (the image alone), wipe (a slider uncovers the result
// from the left) and side by side (the image left, the result right, both following the same camera).
// A grey result is held as its filtered stored values and windowed here with the viewport's window each time that
// changes (a drag, a preset), so it follows window/level at once; a colour result is the store's PNG.
import { h } from '../ui.js';
import { windowText, windowOfText } from './render.js';
import { windowInto } from './stored-values.js';

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

  // { image (what is drawn: a bitmap, or a canvas of the windowed stored values), url, key } and for grey results
  // { stored, urlFor({center, width}), imageData, window (the text of the window it is windowed with) }
  let result = null;
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
    const t = transform(result.image.width, result.image.height);
    ctx.setTransform(...t);
    // The same interpolation as the image under it: smooth, or each pixel a square.
    ctx.imageSmoothingEnabled = vp.smooth();
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(result.image, 0, 0);
    ctx.restore();
    canvas.dataset.transform = t.join(',');
  }

  /** A grey result windowed with the viewport's window, if that is not the one it shows already. */
  function rewindow() {
    const voi = result?.stored && vp.voi();
    if (!voi) return;
    // The window as the store would be asked for it, so the pixels are those of ?render=png&window=<that>.
    const text = windowText(voi);
    if (text === result.window) return;
    const w = windowOfText(text);
    windowInto(result.imageData, result.stored, w);
    result.image.getContext('2d').putImageData(result.imageData, 0, 0);
    result.window = text;
    result.url = result.urlFor(w);
  }

  function draw() {
    rewindow();
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
    // For a grey result: the rendering the store would answer for the window on show, which the pixels equal.
    overlay.dataset.src = result?.url ?? '';
    overlay.dataset.kind = !result ? '' : result.stored ? 'stored-values' : 'png';
    overlay.dataset.window = result?.window ?? '';
  }

  function release() {
    result?.image.close?.();
    result = null;
  }

  return {
    /** A new result for the image on show, rendered by the store (colour); key says what it was made for. */
    set(bitmap, url, key) {
      release();
      result = { image: bitmap, url, key };
      stale = false;
      draw();
    },
    /**
     * A new grey result as filtered stored values (parseStoredValues), windowed here with whatever window the
     * viewport shows; urlFor({center, width}) is the store's rendering of it for that window; key: what it was made
     * for.
     */
    setStored(stored, urlFor, key) {
      release();
      const image = Object.assign(document.createElement('canvas'), { width: stored.width, height: stored.height });
      result = { image, stored, urlFor, key, imageData: new ImageData(stored.width, stored.height), window: null, url: '' };
      stale = false;
      draw();
    },
    clear() {
      release();
      draw();
    },
    /** The image on show no longer matches the result (another frame, another chain): show the image alone. */
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
      release();
      overlay.remove();
      side.remove();
      slider.remove();
    },
  };
}
