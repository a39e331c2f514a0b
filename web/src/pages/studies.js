// Placeholder until the page is built.
import { h } from '../ui.js';

export function renderStudies(main) {
  main.append(h('p', { class: 'empty' }, 'Coming soon: studies'));
}
