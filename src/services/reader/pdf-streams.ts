import { decode, decodedLength, FILTERS } from './pdf-filters.js';
import {
  dictGet,
  isSpecial,
  isWhite,
  type PdfDict,
  PdfName,
  PdfRef,
  type PdfValue,
  parseObject,
  skipSpace,
} from './pdf-syntax.js';

/**
 * Counts what a PDF's streams decode to before pdf.js sees the file. pdf.js inflates a stream into
 * one ArrayBuffer (growing it by doubling), memory that no heap cap counts: a 300 KB file whose
 * content stream inflates to 300 MB costs the process twice that. Every stream of the file (page
 * contents, fonts, object streams, images alike: a label in the stream's dictionary is no promise
 * of how pdf.js will use it) is decoded here through its filter chain, counting bytes and keeping
 * none of the last stage, until the total passes the bound.
 *
 * Which bytes a stream holds and which filters it names are read as pdf.js reads them: the data
 * starts after the first end of line that follows the `stream` keyword; the dictionary is parsed
 * whole from its `obj` (a repeated key keeps its last value, `/F` before `/Filter`, nested
 * dictionaries and strings are not the stream's own); `/Length`, a filter or its parameters given as
 * `N G R` are looked up where the object is written plainly in the file. Where the file can be read
 * more than one way, every reading is measured and the largest counts; data that starts with a zlib
 * header is measured as deflated (pdf.js inflates nothing else) even where no dictionary says so.
 * Unknown filter names pass the data on unchanged, as in pdf.js.
 *
 * Filters that only compress images (DCT, JPX, JBIG2, CCITT) end the count: pdf.js decodes no image
 * to extract text. Encrypted files are refused: their streams cannot be measured without the key.
 * What pdf.js allocates while it reads is bounded once more in the extraction thread (pdf-buffers.ts).
 */
export class PdfTooLarge extends Error {}

/** The refusal of a PDF whose streams decode past `bound` (the bound as the config names it). */
export const pdfTooLarge = (bound: string): PdfTooLarge =>
  new PdfTooLarge(`the PDF's streams decode to more than ${bound}`);

const IMAGE_FILTERS = new Set(['DCTDecode', 'DCT', 'JPXDecode', 'JPX', 'JBIG2Decode', 'CCITTFaxDecode', 'CCF']);

/** Throws PdfTooLarge when the decoded streams pass `maxBytes` in total. */
export async function checkPdfStreams(pdf: Buffer, maxBytes: number, bound: string): Promise<void> {
  const tooLarge = () => pdfTooLarge(bound);
  const text = pdf.toString('latin1');
  if (/\/Encrypt\b/.test(text))
    throw new PdfTooLarge('the PDF is encrypted; its streams cannot be measured before reading');
  const file = new PdfFile(pdf, text);
  let total = 0;
  // Streams written inside one another's data make the text read again and again: past a few
  // times the file's size, the file is no honest one.
  let work = 0;
  const allowance = 8 * pdf.length + 1024 * 1024;
  for (const { readings, scanned } of streams(file)) {
    work += scanned + readings.reduce((sum, reading) => sum + reading.data.length, 0);
    if (work > allowance)
      throw new PdfTooLarge('the PDF nests streams in one another too often to be measured before reading');
    let most = 0;
    for (const reading of readings) {
      most = Math.max(most, await measure(reading, maxBytes - total + 1));
      if (total + most > maxBytes) throw tooLarge();
    }
    total += most;
  }
}

interface Stage {
  kind: string;
  /** LZW's EarlyChange. */
  earlyChange: number;
  /** A predictor follows: its output is a buffer of its own, as long as its input and one whole row more at most. */
  predicted: boolean;
  rowBytes: number;
}

/** One way to read a stream: its data, and its filters (or `sniff`: deflated while a zlib header says so). */
interface Reading {
  data: Buffer;
  stages: Stage[] | 'sniff';
}

/** What the reading decodes to, every stage counted (each is a buffer of its own in pdf.js); stops past `limit`. */
async function measure(reading: Reading, limit: number): Promise<number> {
  let { data } = reading;
  if (reading.stages === 'sniff') {
    let total = 0;
    for (let layer = 0; layer < 8 && zlibHeader(data); layer++) {
      try {
        data = decode('flate', data, limit - total);
      } catch {
        return limit;
      }
      total += data.length;
      if (total >= limit) break;
    }
    return total;
  }
  const stages = reading.stages;
  let total = 0;
  for (const [i, stage] of stages.entries()) {
    if (stage.kind === 'flate' && !zlibHeader(data)) break;
    const copies = stage.predicted ? 2 : 1;
    total += stage.rowBytes;
    const left = limit - total;
    if (left <= 0) return total;
    if (i === stages.length - 1)
      return total + copies * (await decodedLength(stage.kind, data, Math.ceil(left / copies), stage.earlyChange));
    try {
      data = decode(stage.kind, data, left, stage.earlyChange);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return limit;
      break;
    }
    total += copies * data.length;
    if (total >= limit) break;
  }
  return total;
}

/** The zlib header as pdf.js's FlateStream checks it (method 8, check bits, no preset dictionary). */
function zlibHeader(data: Buffer): boolean {
  const cmf = data[0];
  const flg = data[1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && ((cmf << 8) + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/** The file, with its plainly written objects (`N G obj`) found once, when a reference needs one. */
class PdfFile {
  private objects: Map<string, number[]> | undefined;
  private values = new Map<string, PdfValue[]>();
  constructor(
    readonly pdf: Buffer,
    readonly text: string,
  ) {}

  /** Every plainly written value of the object, latest first (pdf.js follows the newest cross-reference). */
  resolve(value: PdfValue | undefined): PdfValue[] {
    if (!(value instanceof PdfRef)) return value === undefined ? [] : [value];
    const key = `${value.num} ${value.gen}`;
    const known = this.values.get(key);
    if (known) return known;
    if (!this.objects) {
      this.objects = new Map();
      for (const match of this.text.matchAll(/(?<![\d.])(\d+)\s+(\d+)\s+obj(?![^\s()<>[\]{}/%])/g)) {
        const id = `${Number(match[1])} ${Number(match[2])}`;
        const at = (match.index ?? 0) + match[0].length;
        const known = this.objects.get(id);
        if (known) known.unshift(at);
        else this.objects.set(id, [at]);
      }
    }
    const found: PdfValue[] = [];
    for (const at of (this.objects.get(key) ?? []).slice(0, 4)) {
      try {
        // A filter name, a length or a parameters dictionary is short: 64 KB of text is plenty.
        const parsed = parseObject(this.text.slice(at, at + 65_536), 0).value;
        if (!(parsed instanceof PdfRef)) found.push(parsed);
      } catch {}
    }
    this.values.set(key, found);
    return found;
  }
}

const STREAM = 'stream';

/** The readings of each `stream` keyword of the file, in order, with how much text was parsed to find its dictionary. */
function* streams(file: PdfFile): Generator<{ readings: Reading[]; scanned: number }> {
  const { pdf, text } = file;
  let previous: { start: number; end: number } | undefined;
  for (let at = 0; ; ) {
    const keyword = text.indexOf(STREAM, at);
    if (keyword < 0) return;
    at = keyword + STREAM.length;
    const before = keyword > 0 ? text.charCodeAt(keyword - 1) : 0x20;
    if (text.startsWith('end', keyword - 3) || !(isWhite(before) || before === 0x3e)) continue;
    if (at < text.length && !isSpecial(text.charCodeAt(at))) continue;
    const start = dataStart(text, at);
    // The dictionary lies after the previous stream's data; a stream written inside another's data
    // (an offset in the cross-reference can point there) is looked for from that data's start.
    const lower = previous ? (keyword >= previous.end ? previous.end : previous.start) : 0;
    const dicts = dictionaries(text, keyword, lower);
    const readings: Reading[] = [];
    const ranges = new Set<number>([streamEnd(text, start)]);
    for (const dict of dicts) {
      const ends = lengthEnds(file, dict, start);
      for (const end of ends.length ? ends : [streamEnd(text, start)]) {
        ranges.add(end);
        for (const stages of filterChains(file, dict)) readings.push({ data: pdf.subarray(start, end), stages });
      }
    }
    for (const end of ranges) {
      const data = pdf.subarray(start, end);
      const flate = readings.some(
        (r) => r.data.length === data.length && r.stages !== 'sniff' && r.stages[0]?.kind === 'flate',
      );
      if (!flate && zlibHeader(data)) readings.push({ data, stages: 'sniff' });
    }
    if (dicts.length) previous = { start, end: Math.max(...ranges) };
    yield { readings, scanned: keyword - lower };
  }
}

/** pdf.js's Lexer.skipToNextLine: the data starts after the first CR, LF or CRLF past the keyword. */
function dataStart(text: string, from: number): number {
  const cr = text.indexOf('\r', from);
  const lf = text.indexOf('\n', from);
  if (cr < 0 && lf < 0) return text.length;
  if (cr >= 0 && (lf < 0 || cr < lf)) return text[cr + 1] === '\n' ? cr + 2 : cr + 1;
  return lf + 1;
}

/**
 * The stream's dictionary, however long: the one that ends just before the keyword when the text
 * since the previous stream is read object by object; failing that (bytes between objects that no
 * parser reads, as pdf.js jumps to each object's offset), any parsed from an `N G obj` (or, failing
 * those, from a `<<`) that ends there. Every such parse counts: a decoy can only add a reading.
 */
function dictionaries(text: string, keyword: number, lower: number): PdfDict[] {
  const region = text.slice(lower, keyword);
  const found: PdfDict[] = [];
  const tryAt = (at: number) => {
    try {
      const { value, end } = parseObject(region, at);
      if (value instanceof Map && skipSpace(region, end) === region.length) found.push(value);
    } catch {}
  };
  try {
    for (let at = 0; skipSpace(region, at) < region.length; ) {
      const { value, end } = parseObject(region, at);
      if (value instanceof Map && skipSpace(region, end) === region.length) found.push(value);
      at = end;
    }
  } catch {}
  if (found.length) return found;
  const objects = [...region.matchAll(/(?<![\d.])\d+\s+\d+\s+obj(?![^\s()<>[\]{}/%])/g)];
  for (const match of objects.slice(-16)) tryAt((match.index ?? 0) + match[0].length);
  if (found.length) return found;
  for (
    let at = region.lastIndexOf('<<'), tries = 0;
    at >= 0 && tries < 32;
    at = region.lastIndexOf('<<', at - 1), tries++
  )
    tryAt(at);
  return found;
}

/** Where the data ends by `/Length`, when it lands on `endstream` (after whitespace and comments) as pdf.js requires. */
function lengthEnds(file: PdfFile, dict: PdfDict, start: number): number[] {
  const { text } = file;
  const ends: number[] = [];
  for (const length of file.resolve(dict.get('Length'))) {
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) continue;
    const end = start + length;
    if (end > text.length) continue;
    const after = skipSpace(text, end);
    const close = after + 'endstream'.length;
    if (text.startsWith('endstream', after) && (close >= text.length || isSpecial(text.charCodeAt(close))))
      ends.push(end);
  }
  return ends;
}

/** pdf.js's search for the end when `/Length` does not hold: `endstream`, or `endsteam` / `endstrea` and a space. */
function streamEnd(text: string, start: number): number {
  for (let at = text.indexOf('end', start); at >= 0; at = text.indexOf('end', at + 1)) {
    const rest = text.slice(at + 3, at + 9);
    if (rest === 'stream') return at;
    const short = rest.slice(0, 5);
    if ((short === 'steam' || short === 'strea') && isWhite(text.charCodeAt(at + 8))) return at;
  }
  return text.length;
}

/** The stream's filter chains (one per plain reading of an indirect value), as pdf.js's Parser.filter builds them. */
function filterChains(file: PdfFile, dict: PdfDict): Stage[][] {
  const chains: Stage[][] = [];
  const params = file.resolve(dictGet(dict, 'DP', 'DecodeParms'));
  for (const filter of file.resolve(dictGet(dict, 'F', 'Filter'))) {
    if (filter instanceof PdfName) {
      chains.push(chain([filter], [params[0]]));
      continue;
    }
    if (!Array.isArray(filter)) {
      chains.push([]);
      continue;
    }
    const names = filter.map((item) => file.resolve(item)[0]);
    const each = Array.isArray(params[0]) ? params[0].map((item) => file.resolve(item)[0]) : [];
    chains.push(chain(names, each));
  }
  return chains.length ? chains : [[]];
}

function chain(names: (PdfValue | undefined)[], params: (PdfValue | undefined)[]): Stage[] {
  const stages: Stage[] = [];
  for (const [i, name] of names.entries()) {
    if (!(name instanceof PdfName) || IMAGE_FILTERS.has(name.name)) break;
    const kind = FILTERS[name.name];
    if (!kind) continue;
    const param = params[i];
    const get = (...keys: string[]) => (param instanceof Map ? dictGet(param, ...keys) : undefined);
    const number = (value: PdfValue | undefined, fallback: number) =>
      typeof value === 'number' && value ? value : fallback;
    const predictor = number(get('Predictor'), 1);
    // pdf.js's own arithmetic (a 32-bit shift), so that an absurd width counts what pdf.js would make of it.
    const row =
      (number(get('Columns'), 1) * number(get('Colors'), 1) * number(get('BPC', 'BitsPerComponent'), 8) + 7) >> 3;
    const predicted = (kind === 'flate' || kind === 'lzw') && predictor > 1;
    stages.push({
      kind,
      earlyChange: kind === 'lzw' && param instanceof Map && param.has('EarlyChange') ? Number(get('EarlyChange')) : 1,
      predicted,
      rowBytes: predicted ? Math.max(0, row) : 0,
    });
  }
  return stages;
}
