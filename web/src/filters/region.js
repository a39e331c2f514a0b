// The rectangle the filters apply to, drawn on the image with the left button (the "Region" tool) and kept in image
// pixels (x, y, w, h: what the store's region= takes), so it stays on the same anatomy through zoom, pan and
// rotation, and across the frames of a series.
const SVG = 'http://www.w3.org/2000/svg';

export function createRegionTool(vp, { onChange = () => {} } = {}) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.classList.add('region-layer');
  const shape = document.createElementNS(SVG, 'polygon');
  shape.setAttribute('class', 'region-shape');
  svg.append(shape);
  // Catches the drag only while the tool is on; otherwise the image's own tools get the mouse.
  const catcher = document.createElement('div');
  catcher.className = 'region-catcher';
  catcher.dataset.test = 'region-catcher';
  catcher.hidden = true;
  vp.element.append(svg, catcher);

  let region = null;
  let drag = null;

  function imagePoint(e) {
    const r = vp.element.getBoundingClientRect();
    return vp.canvasToImage(e.clientX - r.left, e.clientY - r.top);
  }
  function clamp(a, b) {
    const image = vp.image();
    const W = image?.columns ?? image?.width ?? 0, H = image?.rows ?? image?.height ?? 0;
    const x0 = Math.max(0, Math.min(W, Math.floor(Math.min(a[0], b[0])))), x1 = Math.max(0, Math.min(W, Math.ceil(Math.max(a[0], b[0]))));
    const y0 = Math.max(0, Math.min(H, Math.floor(Math.min(a[1], b[1])))), y1 = Math.max(0, Math.min(H, Math.ceil(Math.max(a[1], b[1]))));
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }
  catcher.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    catcher.setPointerCapture(e.pointerId);
    drag = imagePoint(e);
  });
  catcher.addEventListener('pointermove', (e) => {
    if (!drag) return;
    region = clamp(drag, imagePoint(e));
    draw();
  });
  catcher.addEventListener('pointerup', (e) => {
    if (!drag) return;
    const r = clamp(drag, imagePoint(e));
    drag = null;
    region = r.w >= 2 && r.h >= 2 ? r : null; // a click is not a region
    draw();
    onChange(region);
  });

  function draw() {
    svg.style.display = region ? '' : 'none';
    if (!region) return;
    const { x, y, w, h } = region;
    const corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([a, b]) => vp.imageToCanvas(a, b));
    shape.setAttribute('points', corners.map((p) => p.join(',')).join(' '));
  }

  return {
    get: () => region,
    set(r) {
      region = r;
      draw();
      onChange(region);
    },
    /** Turns the drawing tool on or off. */
    activate(on) {
      catcher.hidden = !on;
    },
    active: () => !catcher.hidden,
    redraw: draw,
    destroy() { svg.remove(); catcher.remove(); },
  };
}
