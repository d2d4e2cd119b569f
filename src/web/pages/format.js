// A step's result shown formatted: a whole JSON document (or Atlassian Document Format, as
// Jira and Confluence answer) or Markdown (headings, lists, tables, fenced code — a fenced
// JSON block is pretty-printed — emphasis, code and links). Everything is built as DOM
// nodes from text: HTML in a result stays text, and only http, https and mailto links are
// links (javascript:, data: and every other scheme are dropped to plain text).
import { element } from '/dom.js';

const SAFE_SCHEMES = ['http:', 'https:', 'mailto:'];

export function safeHref(href) {
  try {
    const url = new URL(href, 'http://invalid.invalid/');
    if (!SAFE_SCHEMES.includes(url.protocol) || url.hostname === 'invalid.invalid') return null;
    return url.href;
  } catch {
    return null;
  }
}

function safeLink(href, children) {
  const target = safeHref(href);
  if (!target) return children;
  return [element('a', { href: target, rel: 'noopener noreferrer', target: '_blank' }, children)];
}

// **bold**, *em* / _em_, `code`, [text](url), <https://…> and bare http(s) URLs.
function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))|(<https?:[^>\s]+>)|(https?:\/\/[^\s<]+[^\s<.,;:!?)])/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const [whole, code, strong, em, mdLink, angle, bare] = match;
    if (code) out.push(element('code', { textContent: code.slice(1, -1) }));
    else if (strong) out.push(element('strong', {}, inline(strong.slice(2, -2))));
    else if (em) out.push(element('em', {}, inline(em.slice(1, -1))));
    else if (mdLink) {
      const close = mdLink.indexOf('](');
      out.push(...safeLink(mdLink.slice(close + 2, -1), inline(mdLink.slice(1, close))));
    } else if (angle) out.push(...safeLink(angle.slice(1, -1), [angle.slice(1, -1)]));
    else if (bare) out.push(...safeLink(bare, [bare]));
    else out.push(whole);
    last = match.index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function codeBlock(language, text) {
  if (/^json$/i.test(language)) {
    try {
      return element('pre', { className: 'code' }, [element('code', { textContent: JSON.stringify(JSON.parse(text), null, 2) })]);
    } catch { /* shown as written */ }
  }
  return element('pre', { className: 'code' }, [element('code', { textContent: text })]);
}

function tableRow(line) {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

export function markdown(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = line.match(/^\s*(```|~~~)\s*([\w+-]*)\s*$/);
    if (fence) {
      const body = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i += 1;
      blocks.push(codeBlock(fence[2], body.join('\n')));
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      blocks.push(element(`h${Math.min(6, heading[1].length + 3)}`, {}, inline(heading[2])));
      i += 1;
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      const head = tableRow(line);
      i += 2;
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(tableRow(lines[i++]));
      blocks.push(element('table', { className: 'result-table' }, [
        element('thead', {}, [element('tr', {}, head.map((h) => element('th', { scope: 'col' }, inline(h))))]),
        element('tbody', {}, rows.map((r) => element('tr', {}, r.map((c) => element('td', {}, inline(c)))))),
      ]));
      continue;
    }
    const item = line.match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
    if (item) {
      const ordered = /\d/.test(item[1]);
      const items = [];
      while (i < lines.length) {
        const next = lines[i].match(/^\s*([-*+]|\d+[.)])\s+(.*)$/);
        if (!next || /\d/.test(next[1]) !== ordered) break;
        items.push(element('li', {}, inline(next[2])));
        i += 1;
      }
      blocks.push(element(ordered ? 'ol' : 'ul', {}, items));
      continue;
    }
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const paragraph = [];
    while (i < lines.length && lines[i].trim() !== '' && !/^(#{1,6}\s|\s*(```|~~~)|\s*([-*+]|\d+[.)])\s)/.test(lines[i])) {
      paragraph.push(lines[i++]);
    }
    if (paragraph.length === 0) paragraph.push(lines[i++]);
    blocks.push(element('p', {}, inline(paragraph.join('\n'))));
  }
  return blocks;
}

// Atlassian Document Format: {"type": "doc", "version": 1, "content": [...]}.
function isAdf(value) {
  return value && typeof value === 'object' && value.type === 'doc' && Array.isArray(value.content);
}

function adfText(node) {
  let nodes = [node.text ?? ''];
  for (const mark of node.marks || []) {
    if (mark.type === 'strong') nodes = [element('strong', {}, nodes)];
    else if (mark.type === 'em') nodes = [element('em', {}, nodes)];
    else if (mark.type === 'code') nodes = [element('code', {}, nodes)];
    else if (mark.type === 'strike') nodes = [element('s', {}, nodes)];
    else if (mark.type === 'link') nodes = safeLink(mark.attrs?.href ?? '', nodes);
  }
  return nodes;
}

function adf(node, depth = 0) {
  if (!node || typeof node !== 'object' || depth > 64) return [];
  const children = () => (Array.isArray(node.content) ? node.content.flatMap((c) => adf(c, depth + 1)) : []);
  switch (node.type) {
    case 'doc': return children();
    case 'paragraph': return [element('p', {}, children())];
    case 'heading': return [element(`h${Math.min(6, (Number(node.attrs?.level) || 1) + 3)}`, {}, children())];
    case 'text': return adfText(node);
    case 'hardBreak': return [element('br')];
    case 'rule': return [element('hr')];
    case 'bulletList': return [element('ul', {}, children())];
    case 'orderedList': return [element('ol', {}, children())];
    case 'listItem': return [element('li', {}, children())];
    case 'blockquote': return [element('blockquote', {}, children())];
    case 'codeBlock': return [element('pre', { className: 'code' }, [element('code', {}, children())])];
    case 'table': return [element('table', { className: 'result-table' }, [element('tbody', {}, children())])];
    case 'tableRow': return [element('tr', {}, children())];
    case 'tableHeader': return [element('th', {}, children())];
    case 'tableCell': return [element('td', {}, children())];
    case 'mention': return [node.attrs?.text ?? '@someone'];
    case 'emoji': return [node.attrs?.text ?? node.attrs?.shortName ?? ''];
    case 'inlineCard': return safeLink(node.attrs?.url ?? '', [node.attrs?.url ?? '']);
    default: return children();
  }
}

// The nodes that show text formatted.
export function formatted(text) {
  const trimmed = text.trim();
  if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
    try {
      const value = JSON.parse(trimmed);
      if (isAdf(value)) return adf(value);
      return [element('pre', { className: 'code' }, [element('code', { textContent: JSON.stringify(value, null, 2) })])];
    } catch { /* Markdown then */ }
  }
  return markdown(text);
}
