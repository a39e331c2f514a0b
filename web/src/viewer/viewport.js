// One Cornerstone StackViewport with the radiologist's tools: the stored values are loaded once and windowed on the
// client (window/level by drag is a re-render, no request), zoom/pan/fit/1:1, rotate/flip/invert, stack scrolling
// with prefetch, cine, and the measurement tools (length in mm, rectangle/ellipse ROI with mean and SD in modality
// units). Everything the page needs to draw its overlays comes out through onChange.
import { cornerstone } from './cornerstone.js';

let counter = 0;

/** The tools the toolbar can put on the left mouse button (name → Cornerstone tool name). */
export const PRIMARY_TOOLS = {
  wl: 'WindowLevel', pan: 'Pan', zoom: 'Zoom', length: 'Length', rectangle: 'RectangleROI', ellipse: 'EllipticalROI',
  probe: 'Probe',
};

export async function createViewport(element, { onChange = () => {} } = {}) {
  const { core, tools } = await cornerstone();
  const { MouseBindings } = tools.Enums;
  const n = ++counter;
  const engineId = `medjava-engine-${n}`, viewportId = `medjava-viewport-${n}`, groupId = `medjava-tools-${n}`;
  const engine = new core.RenderingEngine(engineId);
  engine.enableElement({ viewportId, type: core.Enums.ViewportType.STACK, element,
    defaultOptions: { background: [0, 0, 0] } });
  const viewport = engine.getViewport(viewportId);
  const group = tools.ToolGroupManager.createToolGroup(groupId);
  for (const name of [...Object.values(PRIMARY_TOOLS), 'StackScroll']) group.addTool(name);
  group.addViewport(viewportId, engineId);
  // Middle button pans, right button zooms, the wheel scrolls the stack, whatever the left button does.
  group.setToolActive('Pan', { bindings: [{ mouseButton: MouseBindings.Auxiliary }] });
  group.setToolActive('Zoom', { bindings: [{ mouseButton: MouseBindings.Secondary }] });
  group.setToolActive('StackScroll', { bindings: [{ mouseButton: MouseBindings.Wheel }] });
  for (const t of ['Length', 'RectangleROI', 'EllipticalROI', 'Probe']) group.setToolPassive(t);
  let primary = null;

  let frames = [];
  let cine = null;
  let naturalInvert = false;
  const changed = (what) => onChange(what, api);
  const listeners = [
    [core.Enums.Events.VOI_MODIFIED, () => changed('voi')],
    [core.Enums.Events.CAMERA_MODIFIED, () => changed('camera')],
    [core.Enums.Events.STACK_NEW_IMAGE, () => changed('image')],
    [core.Enums.Events.IMAGE_RENDERED, () => changed('rendered')],
  ];
  listeners.forEach(([type, f]) => element.addEventListener(type, f));
  const resizer = new ResizeObserver(() => {
    engine.resize(true, true);
    changed('camera');
  });
  resizer.observe(element);

  const api = {
    core, tools, viewport, element, engineId, viewportId,

    /** Shows frames (from loadSeries) starting at `index`; prefetches the rest of the stack in the background. */
    async setStack(list, index = 0) {
      api.stopCine();
      frames = list;
      tools.utilities.stackPrefetch.disable(element);
      engine.resize(true, false); // the page around may have changed since the last resize: fit to what is there now
      try {
        await viewport.setStack(list.map((f) => f.imageId), Math.max(0, Math.min(index, list.length - 1)));
      } catch (e) {
        throw loadError(e);
      }
      naturalInvert = !!viewport.getProperties().invert;
      viewport.resetCamera();
      viewport.render();
      if (list.length > 1) tools.utilities.stackPrefetch.enable(element);
      changed('stack');
    },
    frames: () => frames,
    index: () => viewport.getCurrentImageIdIndex(),
    current: () => frames[viewport.getCurrentImageIdIndex()],
    image: () => viewport.getCornerstoneImage(),

    /**
     * Goes to stack position i (clamped). A frame that fails to load is reported through the loader's failure
     * listeners (and a 401 through the login page); it does not reject here, so scrolling never leaves a stray error.
     */
    async go(i) {
      const target = Math.max(0, Math.min(frames.length - 1, i));
      if (target === viewport.getCurrentImageIdIndex()) return;
      try {
        await viewport.setImageIdIndex(target);
      } catch (e) {
        console.warn('frame not shown:', loadError(e).message);
      }
    },
    scroll(delta) {
      return api.go(viewport.getCurrentImageIdIndex() + delta);
    },

    /** The window in modality units: { center, width }. */
    voi() {
      const range = viewport.getProperties().voiRange;
      if (!range) return null;
      const { windowCenter, windowWidth } = core.utilities.windowLevel.toWindowLevel(range.lower, range.upper);
      return { center: windowCenter, width: windowWidth };
    },
    setVoi(center, width) {
      viewport.setProperties({ voiRange: core.utilities.windowLevel.toLowHighRange(Math.max(1, width), center) });
      viewport.render();
    },
    /** The windows the image carries itself (VOI LUT module), as [{ center, width, explanation }]. */
    ownWindows() {
      const imageId = api.current()?.imageId;
      const voi = imageId && core.metaData.get('voiLutModule', imageId);
      const centers = [].concat(voi?.windowCenter ?? []), widths = [].concat(voi?.windowWidth ?? []);
      const names = [].concat(voi?.windowCenterAndWidthExplanation ?? []);
      return centers.map((c, i) => ({ center: Number(c), width: Number(widths[i] ?? widths[0]), name: names[i] }))
        .filter((w) => Number.isFinite(w.center) && w.width >= 1);
    },
    /** The window spanning the image's values (modality units). */
    fullRange() {
      const image = api.image();
      if (!image) return null;
      const { minPixelValue: lo, maxPixelValue: hi } = image;
      return { center: (lo + hi) / 2 + 0.5, width: Math.max(1, hi - lo + 1) };
    },
    isColor: () => !!api.image()?.color,

    /** Linear interpolation between image pixels (smooth) or each pixel as a square (nearest). */
    smooth: () => viewport.getProperties().interpolationType !== core.Enums.InterpolationType.NEAREST,
    toggleSmooth() {
      const { LINEAR, NEAREST } = core.Enums.InterpolationType;
      viewport.setProperties({ interpolationType: api.smooth() ? NEAREST : LINEAR });
      viewport.render();
      changed('voi');
    },
    inverted: () => !!viewport.getProperties().invert,
    /** Whether the display differs from the image's own polarity (MONOCHROME1 is shown inverted by default). */
    invertedByUser: () => !!viewport.getProperties().invert !== naturalInvert,
    toggleInvert() {
      viewport.setProperties({ invert: !viewport.getProperties().invert });
      viewport.render();
      changed('voi');
    },
    rotate(degrees = 90) {
      const { rotation = 0 } = viewport.getViewPresentation();
      viewport.setViewPresentation({ rotation: (rotation + degrees + 360) % 360 });
      viewport.render();
    },
    flip(horizontal = true) {
      const p = viewport.getViewPresentation();
      viewport.setViewPresentation(horizontal ? { flipHorizontal: !p.flipHorizontal } : { flipVertical: !p.flipVertical });
      viewport.render();
    },
    fit() {
      viewport.resetCamera({ resetPan: true, resetZoom: true });
      viewport.render();
    },
    /** Screen pixels per image pixel (1 = one image pixel on one CSS pixel). */
    scale() {
      const image = api.image();
      const { parallelScale } = viewport.getCamera();
      if (!image || !parallelScale) return null;
      const spacing = image.rowPixelSpacing || 1;
      return (element.clientHeight / (2 * parallelScale)) * spacing;
    },
    /** One image pixel on one screen pixel, keeping the centre. */
    actualSize() {
      const s = api.scale();
      if (!s) return;
      const camera = viewport.getCamera();
      viewport.setCamera({ parallelScale: camera.parallelScale * s });
      viewport.render();
    },
    resetAll() {
      viewport.resetProperties();
      viewport.setViewPresentation({ rotation: 0, flipHorizontal: false, flipVertical: false });
      api.fit();
      changed('voi');
    },

    setPrimaryTool(name) {
      const tool = PRIMARY_TOOLS[name];
      if (primary) group.setToolPassive(primary);
      if (tool) group.setToolActive(tool, { bindings: [{ mouseButton: MouseBindings.Primary }] });
      primary = tool ?? null;
      changed('tool');
    },
    primaryTool: () => Object.keys(PRIMARY_TOOLS).find((k) => PRIMARY_TOOLS[k] === primary) ?? null,

    /** Removes every measurement on this viewport. */
    clearAnnotations() {
      tools.annotation.state.removeAllAnnotations();
      viewport.render();
    },
    /** Removes the measurement the user selected last (Delete key). */
    deleteSelected() {
      const selected = tools.annotation.selection.getAnnotationsSelected() ?? [];
      selected.forEach((a) => tools.annotation.state.removeAnnotation(a.annotationUID));
      viewport.render();
      return selected.length;
    },

    playCine(fps) {
      if (frames.length < 2) return;
      tools.utilities.cine.playClip(element, { framesPerSecond: fps, loop: true });
      cine = fps;
      changed('cine');
    },
    stopCine() {
      if (cine === null) return;
      tools.utilities.cine.stopClip(element);
      cine = null;
      changed('cine');
    },
    cineRate: () => cine,

    /** Image pixel (x, y), top-left corner of the first pixel = (0, 0), to CSS pixels of the viewport's canvas. */
    imageToCanvas(x, y) {
      const imageId = api.current()?.imageId;
      return viewport.worldToCanvas(core.utilities.imageToWorldCoords(imageId, [x, y]));
    },
    canvasToImage(x, y) {
      const imageId = api.current()?.imageId;
      return core.utilities.worldToImageCoords(imageId, viewport.canvasToWorld([x, y]));
    },

    destroy() {
      api.stopCine();
      tools.utilities.stackPrefetch.disable(element);
      listeners.forEach(([type, f]) => element.removeEventListener(type, f));
      resizer.disconnect();
      tools.ToolGroupManager.destroyToolGroup(groupId);
      engine.destroy();
    },
  };
  api.setPrimaryTool('wl');
  return api;
}

/** The loader rejects with the XMLHttpRequest itself: an Error that says what the store answered. */
function loadError(e) {
  if (e instanceof Error) return e;
  const status = e?.status ?? e?.request?.status;
  return new Error(status ? `the store answered ${status} for an image` : `an image could not be loaded (${String(e)})`);
}
