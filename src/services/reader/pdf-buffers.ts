/**
 * A bound on what pdf.js allocates while it reads one PDF, whatever the file says. pdf.js runs in the
 * extraction thread itself (in Node its "worker" is a module loaded in-thread), and decodes streams
 * into typed arrays it creates with `new Uint8Array(size)` (growing a stream's buffer by doubling),
 * memory outside the thread's heap cap. In that thread the global typed-array constructors are
 * replaced by proxies that count each large allocation (64 KiB and more) made while a PDF is read,
 * and refuse, before allocating, one that would take the document past its budget. The document is
 * marked, so that the read fails with PdfTooLarge even where pdf.js catches the error and goes on.
 *
 * WebAssembly memory (pdf.js decodes JPEG 2000 with it) is counted as it grows. Only `new` and the
 * constructors' own `from`/`of` pass through the proxies: Node's Buffers, the engine's internals
 * and `subarray`/`slice` (species of the real constructor) do not, and `instanceof`, subclassing
 * and the statics behave as before.
 */
import type { PdfTooLarge } from './pdf-streams.js';

const LARGE = 64 * 1024;

interface Budget {
  limit: number;
  used: number;
  refused: boolean;
}

let current: Budget | undefined;
let installed = false;

const TYPED = [
  'Uint8Array',
  'Uint8ClampedArray',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

const RealArrayBuffer = ArrayBuffer;
const RealSharedArrayBuffer = globalThis.SharedArrayBuffer;

/** Bytes a `new` of this constructor with these arguments allocates (0 for a view on an existing buffer). */
function bytesOf(perElement: number, args: unknown[]): number {
  const [first] = args;
  if (typeof first === 'number') return first * perElement;
  if (first === null || typeof first !== 'object') return 0;
  if (first instanceof RealArrayBuffer || (RealSharedArrayBuffer && first instanceof RealSharedArrayBuffer)) return 0;
  const length = (first as { length?: unknown }).length;
  return typeof length === 'number' ? length * perElement : 0;
}

function charge(bytes: number): void {
  const budget = current;
  if (!budget || bytes < LARGE) return;
  if (budget.refused || budget.used + bytes > budget.limit) {
    budget.refused = true;
    throw new RangeError(`the PDF needs more than ${budget.limit} bytes of buffers`);
  }
  budget.used += bytes;
}

/**
 * Replaces this thread's typed-array constructors (and ArrayBuffer) by counting proxies. Once per
 * thread, in the extraction thread only: the main thread's constructors are left alone.
 */
export function installBufferMeter(): void {
  if (installed) return;
  installed = true;
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of TYPED) {
    const Real = global[name] as (new (...args: unknown[]) => object) & { BYTES_PER_ELEMENT: number };
    if (typeof Real !== 'function') continue;
    const perElement = Real.BYTES_PER_ELEMENT;
    const proxy: object = new Proxy(Real, {
      construct(target, args, newTarget) {
        charge(bytesOf(perElement, args));
        return Reflect.construct(target, args, newTarget === proxy ? target : newTarget);
      },
    });
    global[name] = proxy;
  }
  const buffer: object = new Proxy(RealArrayBuffer, {
    construct(target, args, newTarget) {
      charge(typeof args[0] === 'number' ? args[0] : 0);
      return Reflect.construct(target, args, newTarget === buffer ? target : newTarget);
    },
  });
  global.ArrayBuffer = buffer;
  // pdf.js's JPEG 2000 decoder is WebAssembly (OpenJPEG): its heap grows by Memory.grow, called from
  // JavaScript, and no typed array is made for it.
  // (The server's TypeScript lib has no WebAssembly types: the one method used is typed here.)
  type Memory = { grow(this: Memory, delta: number): number };
  const wasm = (globalThis as unknown as { WebAssembly?: { Memory: { prototype: Memory } } }).WebAssembly;
  if (!wasm) return;
  const memory = wasm.Memory.prototype;
  const grow = memory.grow;
  memory.grow = function (delta) {
    charge(delta * 65_536);
    return grow.call(this, delta);
  };
}

/**
 * Runs `read` (one PDF) with at most `limit` bytes of large buffers. Throws `tooLarge()` when an
 * allocation was refused, whether or not `read` failed for it. Without the meter installed (any
 * thread but an extraction thread), runs `read` unbounded.
 */
export async function withBufferBudget<T>(
  limit: number,
  tooLarge: () => PdfTooLarge,
  read: () => Promise<T>,
): Promise<T> {
  if (current) throw new Error('one PDF at a time per thread');
  const budget: Budget = { limit, used: 0, refused: false };
  current = budget;
  let result: T;
  try {
    result = await read();
  } catch (error) {
    if (budget.refused) throw tooLarge();
    throw error;
  } finally {
    current = undefined;
  }
  if (budget.refused) throw tooLarge();
  return result;
}

/**
 * The budget of one PDF: its own bytes (pdf.js may copy the file) and four times what its streams may
 * decode to, since a stream that decodes to D bytes grows its buffer by doubling to less than 2D,
 * after smaller ones that add up to as much again.
 */
export const pdfBufferLimit = (fileBytes: number, maxDecodedBytes: number): number => fileBytes + 4 * maxDecodedBytes;

/** Whether the PDF being read has been refused an allocation (its read can stop early). */
export const bufferBudgetSpent = (): boolean => current?.refused === true;
