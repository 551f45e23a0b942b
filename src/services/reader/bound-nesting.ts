import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Bounds the nesting of an HTML page before linkedom parses it. linkedom's parser (htmlparser2)
 * keeps its open elements in an array it grows at the front, so a page of 300,000 unclosed `<div>`s
 * (1.5 MB) costs quadratic time in the parse itself, before any walk of the DOM could flatten it.
 *
 * One linear pass with the same tokenizer the parser uses, and the parser's own rules for which
 * elements a tag opens, implies closed, or closes, finds the start tags that would nest deeper than
 * `max`; those tags (only the tags: text and the rest stay) are left out of the page the parser gets.
 * Their end tags may stay: the parser ignores an end tag whose element is not open, as this pass does.
 */
export function boundNesting(html: string, max: number): string {
  const drops: number[] = [];
  /** Open elements, innermost first, as htmlparser2's Parser keeps them; never deeper than `max`. */
  const stack: string[] = [];
  /** Whether `/>` closes a tag here (inside svg/math), innermost first. */
  const foreign: boolean[] = [false];
  let open: { name: string; start: number; dropped: boolean } | undefined;

  const noop = () => {};
  const callbacks: TokenizerCallbacks = {
    onattribdata: noop,
    onattribentity: noop,
    onattribend: noop,
    onattribname: noop,
    oncdata: noop,
    oncomment: noop,
    ondeclaration: noop,
    onend: noop,
    onprocessinginstruction: noop,
    ontext: noop,
    ontextentity: noop,
    onopentagname(start, end) {
      const name = html.slice(start, end).toLowerCase();
      const closes = IMPLIES_CLOSE.get(name);
      let popped = 0;
      if (closes) while (popped < stack.length && closes.has(stack[popped] as string)) popped++;
      // A raw-text element is never left out: its tag decides how the tokenizer reads what follows.
      const dropped = !VOID.has(name) && !RAW_TEXT.has(name) && stack.length - popped >= max;
      open = { name, start: start - 1, dropped };
      if (dropped) return;
      stack.splice(0, popped);
      if (VOID.has(name)) return;
      stack.unshift(name);
      if (FOREIGN.has(name)) foreign.unshift(true);
      else if (INTEGRATION.has(name)) foreign.unshift(false);
    },
    onopentagend(end) {
      if (open?.dropped) drops.push(open.start, end + 1);
      open = undefined;
    },
    onselfclosingtag(end) {
      if (open?.dropped) drops.push(open.start, end + 1);
      else if (open && foreign[0] && stack[0] === open.name) stack.shift();
      open = undefined;
    },
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (FOREIGN.has(name) || INTEGRATION.has(name)) foreign.shift();
      if (VOID.has(name)) return;
      const at = stack.indexOf(name);
      if (at >= 0) stack.splice(0, at + 1);
    },
  };
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  if (drops.length === 0) return html;
  const kept: string[] = [];
  let from = 0;
  for (let i = 0; i < drops.length; i += 2) {
    kept.push(html.slice(from, drops[i]));
    from = drops[i + 1] as number;
  }
  kept.push(html.slice(from));
  return kept.join('');
}

// htmlparser2's Parser (HTML mode): void elements, the elements whose start tag closes open ones,
// and the foreign (svg, math) and integration points that decide whether `/>` closes a tag.
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const FOREIGN = new Set(['math', 'svg']);
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);
const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const SECTION = new Set(['thead', 'tbody']);
const DDT = new Set(['dd', 'dt']);
const RTP = new Set(['rt', 'rp']);
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag): [string, ReadonlySet<string>] => [tag, P]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag): [string, ReadonlySet<string>] => [
    tag,
    FORM,
  ]),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DDT],
  ['dt', DDT],
  ...[
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((tag): [string, ReadonlySet<string>] => [tag, P]),
  ['rt', RTP],
  ['rp', RTP],
  ['tbody', SECTION],
  ['tfoot', SECTION],
]);
