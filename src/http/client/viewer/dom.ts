// A tiny element builder: the viewer builds its DOM once and then only
// updates text and attributes, so this is all it needs.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = String(v);
    // Through the CSSOM, which a Content-Security-Policy without 'unsafe-inline' still allows.
    else if (k === 'style') el.style.cssText = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Sets text only when it changed: the scoreboard updates up to 32 times a second. */
export function setText(el: Element, text: string) {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el: Element, name: string, value: string | null) {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

let nextId = 0;
/** A page-unique id prefix for one viewer's labelled elements. */
export const uniqueId = (name: string) => `viewer${++nextId}-${name}`;

/** Inline icons (fixed strings, no user data): the same look on every platform, unlike ⏮ ⏸ emoji. */
const svg = (path: string) =>
  `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`;
export const ICONS = {
  start: svg('M5 5h2.5v14H5zM19 5v14L8.5 12z'),
  back: svg('M6 5h2.5v14H6zM9 12l10-7v14z'),
  play: svg('M7 4.5v15L19.5 12z'),
  pause: svg('M6 5h4.5v14H6zM13.5 5H18v14h-4.5z'),
  forward: svg('M15.5 5H18v14h-2.5zM5 5v14l10-7z'),
  end: svg('M16.5 5H19v14h-2.5zM5 5v14l10.5-7z'),
  help: svg(
    'M11 18h2v-2h-2zm1-16a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm0-14a4 4 0 0 0-4 4h2a2 2 0 1 1 4 0c0 2-3 1.75-3 5h2c0-2.25 3-2.5 3-5a4 4 0 0 0-4-4z',
  ),
} as const;

export function iconButton(label: string, icon: string, attrs: Attrs = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'viewer-btn', 'aria-label': label, title: label, ...attrs });
  b.innerHTML = icon;
  return b;
}
