// Keyboard shortcuts of the viewer and the help popover that lists them. One table: what the popover shows is what
// the keys do.
import { h } from '../ui.js';

/**
 * actions: { name: () => void } from the viewer page. Returns { help (the popover element), toggleHelp, detach }.
 */
export function bindShortcuts(actions) {
  const table = [
    ['↑ / ↓, PgUp / PgDn, wheel', 'previous / next image', (e) => keyIs(e, 'ArrowUp', 'PageUp', 'ArrowLeft') ? actions.scroll(-1)
      : keyIs(e, 'ArrowDown', 'PageDown', 'ArrowRight') ? actions.scroll(1) : false],
    ['Home / End', 'first / last image', (e) => keyIs(e, 'Home') ? actions.first() : keyIs(e, 'End') ? actions.last() : false],
    ['[ / ]', 'previous / next series', (e) => keyIs(e, '[') ? actions.series(-1) : keyIs(e, ']') ? actions.series(1) : false],
    ['Space', 'play / stop cine', (e) => keyIs(e, ' ') && actions.cine()],
    ['0', "the image's own window", (e) => keyIs(e, '0') && actions.preset('0')],
    ['1 … 9', 'CT window presets (soft tissue, lung, bone, brain, …)', (e) => /^[1-9]$/.test(e.key) && actions.preset(e.key)],
    ['I', 'invert', (e) => keyIs(e, 'i') && actions.invert()],
    ['S', 'pixels as squares / smooth', (e) => keyIs(e, 's') && actions.smooth()],
    ['R / Shift+R', 'rotate 90° right / left', (e) => keyIs(e, 'r') && actions.rotate(e.shiftKey ? -90 : 90)],
    ['H / V', 'flip horizontally / vertically', (e) => keyIs(e, 'h') ? actions.flip(true) : keyIs(e, 'v') ? actions.flip(false) : false],
    ['F', 'fit to the window', (e) => keyIs(e, 'f') && actions.fit()],
    ['A', 'actual size (one image pixel per screen pixel)', (e) => keyIs(e, 'a') && actions.actualSize()],
    ['Esc', 'reset the view (window, zoom, rotation); closes this help', (e) => keyIs(e, 'Escape') && actions.escape()],
    ['W / P / Z', 'left button: window/level · pan · zoom', (e) => keyIs(e, 'w') ? actions.tool('wl')
      : keyIs(e, 'p') ? actions.tool('pan') : keyIs(e, 'z') ? actions.tool('zoom') : false],
    ['L / B / E', 'left button: length · box ROI · ellipse ROI', (e) => keyIs(e, 'l') ? actions.tool('length')
      : keyIs(e, 'b') ? actions.tool('rectangle') : keyIs(e, 'e') ? actions.tool('ellipse') : false],
    ['G', 'left button: draw the region the filters apply to', (e) => keyIs(e, 'g') && actions.tool('region')],
    ['Delete', 'delete the selected measurement', (e) => keyIs(e, 'Delete', 'Backspace') && actions.deleteSelected()],
    ['C', 'filtered result: show before / after', (e) => keyIs(e, 'c') && actions.compare()],
    ['?', 'this help', (e) => keyIs(e, '?') && actions.help()],
  ];
  const mouse = [
    ['left drag', 'the tool chosen in the toolbar (window/level by default: right = wider, down = higher level)'],
    ['middle drag', 'pan'], ['right drag', 'zoom'], ['wheel', 'scroll through the series'],
  ];
  const help = h('div', { class: 'help-popover', hidden: true, role: 'dialog', 'aria-label': 'Keyboard shortcuts',
    dataset: { test: 'help' } },
  h('h2', {}, 'Keys and mouse'),
  h('table', {}, [...table, ...mouse].map(([keys, what]) => h('tr', {}, h('th', {}, keys), h('td', {}, what)))),
  h('button', { onclick: () => { help.hidden = true; } }, 'Close'));

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.('input, select, textarea, [contenteditable]')) return;
    // Each entry returns false when the key is not its own; anything else means it ran.
    for (const [, , run] of table) {
      if (run(e) !== false) {
        e.preventDefault();
        return;
      }
    }
  }
  document.addEventListener('keydown', onKey);
  return {
    help,
    toggleHelp() { help.hidden = !help.hidden; },
    detach() { document.removeEventListener('keydown', onKey); },
  };
}

function keyIs(e, ...keys) {
  return keys.some((k) => e.key === k || e.key.toLowerCase() === k);
}
