// Small DOM helpers shared by every page: element building and the message area.

/** h('div', {class: 'x', onclick: f, dataset: {test: 'y'}}, child, 'text', ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * Shows `content` in a modal <dialog> at once and returns `close(value)`, which removes it and calls `done(value)`.
 * Escape closes it with `escaped` unless `mayEscape()` says no (a job still running).
 */
export function modal(test, content, done, { escaped = null, mayEscape = () => true } = {}) {
  const dialog = h('dialog', { class: 'confirm', dataset: { test } }, content);
  const close = (value) => {
    dialog.close();
    dialog.remove();
    done(value);
  };
  dialog.addEventListener('cancel', (e) => { e.preventDefault(); if (mayEscape()) close(escaped); });
  document.body.append(dialog);
  dialog.showModal();
  return close;
}

let messages;

/**
 * A runner of a button's work: the button is disabled while it runs, and what the work throws is shown in
 * `problem` (emptied when the work starts), in the store's words.
 */
export function whileBusy(problem) {
  return async (button, work) => {
    button.disabled = true;
    problem.textContent = '';
    try {
      await work();
    } catch (e) {
      problem.textContent = e.message;
    } finally {
      button.disabled = false;
    }
  };
}

/**
 * A message the user must read: kind 'error' | 'info' | 'ok'; errors stay until dismissed, others for `keep` ms.
 * `text` may hold elements (an Undo button).
 */
export function notify(text, kind = 'info', { keep = 6000 } = {}) {
  if (!messages) {
    messages = h('div', { class: 'messages', dataset: { test: 'messages' }, role: 'status', 'aria-live': 'polite' });
    document.body.append(messages);
  }
  const item = h('div', { class: `message ${kind}`, dataset: { test: `message-${kind}` } }, text,
    h('button', { class: 'dismiss', title: 'Dismiss', onclick: () => item.remove() }, '×'));
  messages.append(item);
  if (kind !== 'error') setTimeout(() => item.remove(), keep);
  return item;
}

/** Shows any failure as a readable message (ApiError carries the store's reason). */
export function showError(e, context = '') {
  console.error(e);
  notify(`${context ? context + ': ' : ''}${e?.message ?? e}`, 'error');
}

export function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let i = -1;
  do { n /= 1024; i++; } while (n >= 1024 && i < units.length - 1);
  return `${n.toFixed(n < 10 ? 1 : 0)} ${units[i]}`;
}
