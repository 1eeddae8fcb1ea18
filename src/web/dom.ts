/** A few DOM helpers, so views read as the markup they build (no framework for three pages). */

export type Child = Node | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | boolean | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...nodes(children));
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  setAttributes(element, attributes);
  element.append(...nodes(children));
  return element;
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
}

function nodes(children: Child[]): Array<Node | string> {
  return children
    .filter((child) => child !== null && child !== undefined && child !== false)
    .map((child) => (typeof child === 'number' ? String(child) : child));
}

/** The element with this id, which the page's HTML is known to have. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the page has no #${id}`);
  return element as T;
}

/** Text for people, so a screen reader and the eye get the same words: "visually hidden". */
export function hiddenText(text: string): HTMLSpanElement {
  return h('span', { class: 'visually-hidden' }, text);
}

/** A button with its handler; async handlers' failures are reported, never lost. */
export function button(label: Child | Child[], onClick: () => void | Promise<void>, attributes: Attributes = {}): HTMLButtonElement {
  const element = h('button', { type: 'button', ...attributes }, ...(Array.isArray(label) ? label : [label]));
  element.addEventListener('click', () => {
    void Promise.resolve()
      .then(onClick)
      .catch((error: unknown) => reportError(error));
  });
  return element;
}

let errorSink: (error: unknown) => void = (error) => console.error(error);

export function onUnhandledError(sink: (error: unknown) => void): void {
  errorSink = sink;
}

export function reportError(error: unknown): void {
  errorSink(error);
}

/** Saves text as a file through a temporary object URL. */
export function download(fileName: string, mimeType: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = h('a', { href: url, download: fileName, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by the next tick; the URL can go after a while.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A file name made of the words of a name: "Hôtel Le Royal" → "hotel-le-royal". */
export function fileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'plan';
}
