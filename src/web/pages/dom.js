// Building the pages from the daemon's answers with DOM calls: text goes in as text, never
// as HTML, so nothing an automation's author or an app wrote can run here.
export function element(tag, properties = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(properties)) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('aria-') || key === 'role') node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

export function link(href, text) {
  return element('a', { href, textContent: text });
}

export function button(text, onClick, properties = {}) {
  const node = element('button', { type: 'button', textContent: text, ...properties });
  node.addEventListener('click', onClick);
  return node;
}

export function chip(status) {
  const text = status ?? 'never run';
  return element('span', { className: `chip chip-${String(text).replace(/\W/g, '-')}`, textContent: text });
}

// Unix seconds as the browser's local date and time.
export function when(seconds) {
  if (seconds === null || seconds === undefined) return '—';
  return new Date(seconds * 1000).toLocaleString();
}

// A time in an IANA zone, with the zone's name.
export function whenIn(seconds, zone) {
  if (seconds === null || seconds === undefined) return 'not planned';
  if (!zone) return when(seconds);
  try {
    return `${new Date(seconds * 1000).toLocaleString(undefined, { timeZone: zone })} (${zone})`;
  } catch {
    return when(seconds);
  }
}

export function duration(started, finished) {
  if (started === null || started === undefined || finished === null || finished === undefined) return '—';
  const seconds = Math.max(0, finished - started);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

// A definition list of [label, value] pairs (values may be nodes).
export function facts(pairs) {
  return element('dl', { className: 'facts' }, pairs.flatMap(([label, value]) => [
    element('dt', { textContent: label }),
    element('dd', {}, [value instanceof Node ? value : String(value ?? '—')]),
  ]));
}

// A table with a header row; rows are arrays of cells (text or nodes). Each cell carries
// its column's label, which phone-width screens show beside it.
export function table(headings, rows, caption) {
  return element('table', { className: 'rows' }, [
    caption ? element('caption', { textContent: caption }) : null,
    element('thead', {}, [element('tr', {}, headings.map((title) => element('th', { scope: 'col', textContent: title })))]),
    element('tbody', {}, rows.map((cells) => element('tr', {}, cells.map((cell, i) =>
      element('td', { dataset: { label: headings[i] } }, [cell instanceof Node ? cell : String(cell ?? '—')]))))),
  ]);
}

export function pager(page, pages, total, onPage, label) {
  return element('nav', { className: 'pager', 'aria-label': label }, [
    button('Previous', () => onPage(page - 1), { disabled: page <= 1 }),
    element('span', { textContent: `Page ${page} of ${pages} (${total})` }),
    button('Next', () => onPage(page + 1), { disabled: page >= pages }),
  ]);
}
