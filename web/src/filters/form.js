// A parameter form generated from a filter's declared parameters (type, default, min/max, odd-only, choices, rule):
// the right input for each, its default, our plain-language help, and checks that quote the store's own rule before
// anything is sent.
import { h } from '../ui.js';
import { helpFor } from './help.js';

/** Checks one value against a declared parameter; returns an error sentence or null. */
export function checkParam(p, raw) {
  const v = String(raw ?? '').trim();
  const rule = p.rule ? ` (${p.rule})` : '';
  switch (p.type) {
    case 'int': {
      if (!/^-?\d+$/.test(v)) return `${p.name} must be a whole number${rule}`;
      const n = Number(v);
      if ((p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max)) return `${p.name} = ${v} is out of range${rule}`;
      if (p.oddOnly && n % 2 === 0) return `${p.name} must be odd${rule}`;
      return null;
    }
    case 'choice':
      return (p.choices ?? []).includes(v) ? null : `${p.name} must be one of ${(p.choices ?? []).join(', ')}`;
    case 'boolean':
      return v === 'true' || v === 'false' ? null : `${p.name} must be true or false`;
    case 'extent': {
      const m = /^(\d+)(?:x(\d+))?$/i.exec(v);
      if (!m) return `${p.name} must be a number or AxB${rule}`;
      const nums = [m[1], m[2]].filter(Boolean).map(Number);
      if (nums.some((n) => (p.min !== undefined && n < p.min) || (p.max !== undefined && n > p.max))) return `${p.name} = ${v} is out of range${rule}`;
      return null;
    }
    default:
      return v === '' ? `${p.name} is empty` : null;
  }
}

/**
 * The form for one chain step. step.params holds the current values (defaults filled in); onInput(name, value, error)
 * is called on every edit. Returns the form element.
 */
export function paramForm(filter, step, onInput) {
  const help = helpFor(filter.id);
  if (!filter.params.length) return h('p', { class: 'param-none' }, 'No settings.');
  return h('div', { class: 'param-form' }, filter.params.map((p) => {
    const id = `p-${step.key}-${p.name}`;
    const problem = h('span', { class: 'param-problem', role: 'alert' });
    const report = (value) => {
      const error = checkParam(p, value);
      problem.textContent = error ?? '';
      input.classList.toggle('invalid', !!error);
      onInput(p.name, value, error);
    };
    let input;
    if (p.type === 'choice') {
      input = h('select', { id, onchange: () => report(input.value) },
        (p.choices ?? []).map((c) => h('option', { value: c, selected: c === step.params[p.name] }, c)));
    } else if (p.type === 'boolean') {
      input = h('input', { id, type: 'checkbox', checked: step.params[p.name] === 'true',
        onchange: () => report(String(input.checked)) });
    } else if (p.type === 'int') {
      input = h('input', { id, type: 'number', value: step.params[p.name], min: p.min, max: p.max,
        step: p.oddOnly ? 2 : 1, inputmode: 'numeric', oninput: () => report(input.value) });
    } else {
      input = h('input', { id, type: 'text', value: step.params[p.name], size: 8, spellcheck: false,
        oninput: () => report(input.value) });
    }
    input.dataset.test = `param-${p.name}`;
    const words = help?.params?.[p.name];
    return h('div', { class: 'param' },
      h('label', { for: id, title: p.description ?? '' }, p.name),
      input,
      h('span', { class: 'param-default' }, `default ${p.defaultValue}`),
      words && h('p', { class: 'param-help' }, words),
      problem);
  }));
}

/** The defaults of a filter's parameters, as strings. */
export function defaults(filter) {
  return Object.fromEntries(filter.params.map((p) => [p.name, String(p.defaultValue ?? '')]));
}
