/**
 * Splits an advanced-search query into tokens: parentheses, OR, negation marks, quoted
 * phrases, sentiment marks and bare words (operators stay words: the parser reads them).
 */
/** A query that cannot be read; the message goes to the client in a NOTICE. */
export class GrammarError extends Error {}

export type Token =
  | { t: 'lparen' }
  | { t: 'rparen' }
  | { t: 'or' }
  | { t: 'not' }
  | { t: 'text'; text: string; quoted: boolean }
  | { t: 'sentiment'; value: 'positive' | 'negative' | 'question' };

export function lex(query: string): Token[] {
  const out: Token[] = [];
  const s = query;
  let i = 0;
  const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // Sentiment marks stand alone, and ":)" must not be read as a closing parenthesis.
    if ((s.startsWith(':)', i) || s.startsWith(':(', i)) && isSpace(s[i + 2])) {
      out.push({ t: 'sentiment', value: s[i + 1] === ')' ? 'positive' : 'negative' });
      i += 2;
      continue;
    }
    if (c === '?' && isSpace(s[i + 1])) {
      out.push({ t: 'sentiment', value: 'question' });
      i++;
      continue;
    }
    if (c === '(') {
      out.push({ t: 'lparen' });
      i++;
      continue;
    }
    if (c === ')') {
      out.push({ t: 'rparen' });
      i++;
      continue;
    }
    if (c === '-' && !isSpace(s[i + 1]) && s[i + 1] !== '-') {
      out.push({ t: 'not' });
      i++;
      continue;
    }
    if (c === '"') {
      const end = s.indexOf('"', i + 1);
      if (end < 0) throw new GrammarError('unbalanced quotes');
      out.push({ t: 'text', text: s.slice(i + 1, end), quoted: true });
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < s.length && !/[\s()"]/.test(s[j])) j++;
    const text = s.slice(i, j);
    i = j;
    if (text === 'OR' || text === '|' || text === '||') out.push({ t: 'or' });
    else if (text !== 'AND' && text !== '&&' && text !== '-') out.push({ t: 'text', text, quoted: false });
  }
  return out;
}
