// Cornerstone3D, set up once for the page: the rendering core, the tools, and the DICOM image loader with the
// store's needs — requests carry the session cookie (same origin), a 401 from an image request sends the user to the
// login page like any other request, and WADO-RS frames are asked for with an Accept header the store understands.
import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import * as dicomImageLoader from '@cornerstonejs/dicom-image-loader';
import { signalUnauthorized } from '../api.js';

// Cornerstone's own Accept (`type=application/octet-stream` unquoted) is refused by the store, which wants the part
// type quoted. One media range, every frame as stored (its transfer syntax in the part's Content-Type; the codecs
// decode on the client): a list of ranges, as this viewer sent before, is answered 400 by Orthanc's DICOMweb plugin
// (1.10), so the viewer could not open a study from it (found by the study-open benchmark).
export const FRAME_ACCEPT = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';

// Cornerstone's prefetch and cine load images without handling a failed request: the loader rejects with the
// XMLHttpRequest, which would surface as an unhandled rejection. Those failures already went through the
// errorInterceptor below (401 → login; others → the viewer's message), so they stop here. Registered when this
// module is evaluated, before the application's own handler of unhandled rejections.
window.addEventListener('unhandledrejection', (e) => {
  if (e.reason instanceof XMLHttpRequest) {
    e.preventDefault();
    e.stopImmediatePropagation();
  }
});

let ready = null;
/** Requests the loader made that failed, by URL: the viewer turns them into readable messages. */
const failures = new Set();

export function onLoadFailure(f) {
  failures.add(f);
  return () => failures.delete(f);
}

/**
 * Whether Cornerstone should draw with the CPU instead of WebGL: yes when the browser's WebGL is a software
 * rasterizer (SwiftShader, llvmpipe: no GPU), where drawing the image in JavaScript is measured twice as fast
 * (web/bench/README.md); `?render=cpu|gpu` in the page's address (before the #) overrides the guess.
 */
export function preferCpuRendering() {
  const asked = new URLSearchParams(location.search).get('render');
  if (asked === 'cpu' || asked === 'gpu') return asked === 'cpu';
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : '';
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

/** Initializes Cornerstone once; resolves to { core, tools, dicomImageLoader }. */
export function cornerstone() {
  ready ??= (async () => {
    core.init({ rendering: { useCPURendering: preferCpuRendering() } });
    tools.init();
    dicomImageLoader.init({
      // Two shared cores: one decoding worker leaves the other for rendering and the page.
      maxWebWorkers: Math.max(1, Math.min(2, (navigator.hardwareConcurrency ?? 2) - 1)),
      wasmBasePath: new URL('wasm/', document.baseURI).href,
      open(xhr, url) {
        xhr.open('get', url, true);
        xhr.withCredentials = true; // same origin: the session cookie goes along anyway; explicit for clarity
      },
      beforeSend(xhr, imageId) {
        const headers = { 'X-Requested-With': 'MedJava' };
        if (imageId.startsWith('wadors:')) headers.Accept = FRAME_ACCEPT;
        return headers;
      },
      errorInterceptor(error) {
        const xhr = error.request;
        if (xhr?.status === 401) signalUnauthorized();
        failures.forEach((f) => f(xhr));
      },
    });
    for (const Tool of [tools.WindowLevelTool, tools.PanTool, tools.ZoomTool, tools.StackScrollTool, tools.LengthTool,
      tools.RectangleROITool, tools.EllipticalROITool, tools.ProbeTool]) {
      tools.addTool(Tool);
    }
    return { core, tools, dicomImageLoader };
  })();
  return ready;
}
