/**
 * The Markdown toolbar's edits as pure functions of (text, selection): each returns the new
 * text and the selection to restore, so the textarea keeps its undo-friendly single edit
 * and the rules are unit-tested.
 */

export type FormatAction = 'heading' | 'bold' | 'italic' | 'link' | 'quote' | 'list' | 'code';

export interface Edit {
  text: string;
  start: number;
  end: number;
}

function wrap(text: string, start: number, end: number, before: string, after: string, placeholder: string): Edit {
  const selected = text.slice(start, end);
  // Toggling off: the selection is already wrapped in exactly these markers.
  if (selected && text.slice(start - before.length, start) === before && text.slice(end, end + after.length) === after) {
    const next = text.slice(0, start - before.length) + selected + text.slice(end + after.length);
    return { text: next, start: start - before.length, end: end - before.length };
  }
  const inner = selected || placeholder;
  const next = text.slice(0, start) + before + inner + after + text.slice(end);
  return { text: next, start: start + before.length, end: start + before.length + inner.length };
}

/** The start of the line holding `pos` and the end of the line holding `end`. */
function lineRange(text: string, start: number, end: number): [number, number] {
  const from = start === 0 ? 0 : text.lastIndexOf('\n', start - 1) + 1;
  // A selection ending just after a newline does not reach into the next line.
  const last = end > start && text[end - 1] === '\n' ? end - 1 : end;
  const lineEnd = text.indexOf('\n', last);
  return [from, lineEnd < 0 ? text.length : lineEnd];
}

function prefixLines(text: string, start: number, end: number, prefix: (i: number) => string, pattern: RegExp): Edit {
  const [from, to] = lineRange(text, start, end);
  const lines = text.slice(from, to).split('\n');
  const all = lines.every((l) => pattern.test(l) || !l.trim());
  const changed = lines.map((l, i) => (all ? l.replace(pattern, '') : l.trim() || lines.length === 1 ? prefix(i) + l.replace(pattern, '') : l));
  const block = changed.join('\n');
  return { text: text.slice(0, from) + block + text.slice(to), start: from, end: from + block.length };
}

export function applyFormat(text: string, start: number, end: number, action: FormatAction, placeholder: string): Edit {
  switch (action) {
    case 'bold':
      return wrap(text, start, end, '**', '**', placeholder);
    case 'italic':
      return wrap(text, start, end, '*', '*', placeholder);
    case 'code': {
      const selected = text.slice(start, end);
      if (selected.includes('\n')) {
        const lead = start > 0 && text[start - 1] !== '\n' ? '\n' : '';
        return wrap(text, start, end, `${lead}\`\`\`\n`, '\n```\n', placeholder);
      }
      return wrap(text, start, end, '`', '`', placeholder);
    }
    case 'link': {
      const label = text.slice(start, end) || placeholder;
      const inserted = `[${label}](https://)`;
      const next = text.slice(0, start) + inserted + text.slice(end);
      // The URL is what is left to type, so it is what ends up selected.
      const urlStart = start + label.length + 3;
      return { text: next, start: urlStart, end: urlStart + 'https://'.length };
    }
    case 'heading':
      return prefixLines(text, start, end, () => '## ', /^#{1,6}\s+/);
    case 'quote':
      return prefixLines(text, start, end, () => '> ', /^>\s?/);
    case 'list':
      return prefixLines(text, start, end, () => '- ', /^[-*+]\s+/);
  }
}

/** An uploaded image at the caret, on a line of its own. */
export function insertImage(text: string, start: number, end: number, url: string, alt: string): Edit {
  const before = start > 0 && text[start - 1] !== '\n' ? '\n\n' : '';
  const after = text[end] === '\n' ? '\n' : '\n\n';
  const markdown = `![${alt.replace(/[[\]]/g, '')}](${url})`;
  const next = text.slice(0, start) + before + markdown + after + text.slice(end);
  const caret = start + before.length + markdown.length + after.length;
  return { text: next, start: caret, end: caret };
}
