// MedJava's browser application: boots Cornerstone3D and shows one image (skeleton; pages come next).
import './app.css';
import { init as csInit, RenderingEngine, Enums } from '@cornerstonejs/core';
import { init as dicomLoaderInit, wadouri } from '@cornerstonejs/dicom-image-loader';

const app = document.getElementById('app');

async function boot() {
  await csInit();
  dicomLoaderInit({ maxWebWorkers: 1, wasmBasePath: new URL('wasm/', import.meta.url).href });
  const params = new URLSearchParams(location.hash.slice(1));
  const path = params.get('image');
  if (!path) {
    app.textContent = 'MedJava viewer';
    return;
  }
  const element = document.createElement('div');
  element.id = 'viewport';
  element.style.width = '512px';
  element.style.height = '512px';
  app.append(element);
  const engine = new RenderingEngine('medjava');
  engine.enableElement({ viewportId: 'main', type: Enums.ViewportType.STACK, element });
  const viewport = engine.getViewport('main');
  await viewport.setStack(['wadouri:' + new URL(path, location.origin).href]);
  viewport.render();
  document.body.dataset.ready = 'true';
}

boot().catch((e) => {
  app.textContent = 'The viewer could not start: ' + e.message;
  console.error(e);
});
