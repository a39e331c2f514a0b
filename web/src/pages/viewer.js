// Placeholder until the page is built.
import { h } from '../ui.js';

export function renderViewer(main) {
  main.append(h('p', { class: 'empty' }, 'Coming soon: viewer'));
}
