import { open } from 'node:fs/promises';

/**
 * A minimal GGUF v3 writer: metadata key/values and F32 or F16 tensors, enough to build test models
 * that the real llama.cpp loader accepts. Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */

export type GgufValue =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'i32[]'; value: readonly number[] }
  | { type: 'f32[]'; value: readonly number[] };

export interface GgufTensor {
  name: string;
  /** ggml order: the row length (innermost dimension) first. */
  dims: readonly number[];
  /**
   * The values, or a function that makes them when the tensor is written: a model of hundreds of
   * millions of weights is then made one tensor at a time instead of all in memory at once.
   */
  data: Float32Array | (() => Float32Array);
  /** How the values are stored; F32 unless told. */
  type?: 'f32' | 'f16';
}

export interface GgufFile {
  metadata: Record<string, GgufValue>;
  tensors: readonly GgufTensor[];
}

const ALIGNMENT = 32;
const GGML_TYPE = { f32: 0, f16: 1 } as const;
const BYTES_PER_VALUE = { f32: 4, f16: 2 } as const;
enum ValueType {
  U32 = 4,
  I32 = 5,
  F32 = 6,
  Bool = 7,
  String = 8,
  Array = 9,
}

class ByteSink {
  private chunks: Buffer[] = [];
  length = 0;
  push(buf: Buffer): void {
    this.chunks.push(buf);
    this.length += buf.length;
  }
  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.push(b);
  }
  i32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.push(b);
  }
  u64(v: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    this.push(b);
  }
  f32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.push(b);
  }
  str(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.u64(bytes.length);
    this.push(bytes);
  }
  pad(): void {
    const rem = this.length % ALIGNMENT;
    if (rem !== 0) this.push(Buffer.alloc(ALIGNMENT - rem));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(sink: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case 'u32':
      sink.u32(ValueType.U32);
      sink.u32(v.value);
      return;
    case 'i32':
      sink.u32(ValueType.I32);
      sink.i32(v.value);
      return;
    case 'f32':
      sink.u32(ValueType.F32);
      sink.f32(v.value);
      return;
    case 'bool':
      sink.u32(ValueType.Bool);
      sink.push(Buffer.from([v.value ? 1 : 0]));
      return;
    case 'string':
      sink.u32(ValueType.String);
      sink.str(v.value);
      return;
    case 'string[]':
      sink.u32(ValueType.Array);
      sink.u32(ValueType.String);
      sink.u64(v.value.length);
      for (const s of v.value) sink.str(s);
      return;
    case 'i32[]':
      sink.u32(ValueType.Array);
      sink.u32(ValueType.I32);
      sink.u64(v.value.length);
      for (const n of v.value) sink.i32(n);
      return;
    case 'f32[]':
      sink.u32(ValueType.Array);
      sink.u32(ValueType.F32);
      sink.u64(v.value.length);
      for (const n of v.value) sink.f32(n);
      return;
  }
}

const valueCount = (t: GgufTensor): number => t.dims.reduce((a, b) => a * b, 1);

/** IEEE half-precision bits of the float whose single-precision bits are `x`, rounded to nearest even. */
function halfBits(x: number): number {
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // Subnormal half (or zero): the implicit leading 1 shifted into the 10-bit mantissa.
    if (e < -10) return sign;
    const full = mant | 0x800000;
    const shift = 14 - e;
    const h = full >>> shift;
    const rest = full & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    return sign | (h + (rest > half || (rest === half && (h & 1) === 1) ? 1 : 0));
  }
  const h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa moves into the exponent, as rounding should (up to infinity).
  return sign | (h + (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1) ? 1 : 0));
}

/** Float32 values as IEEE half-precision, little-endian. */
export function toF16(values: Float32Array): Buffer {
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < bits.length; i++) out[i] = halfBits(bits[i] as number);
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

/** The tensor's stored bytes, padded to the alignment. */
function tensorBytes(t: GgufTensor): Buffer {
  const data = typeof t.data === 'function' ? t.data() : t.data;
  const count = valueCount(t);
  if (count !== data.length) throw new Error(`tensor ${t.name}: dims hold ${count} values, data has ${data.length}`);
  const bytes = (t.type ?? 'f32') === 'f16' ? toF16(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const rem = bytes.length % ALIGNMENT;
  return rem === 0 ? bytes : Buffer.concat([bytes, Buffer.alloc(ALIGNMENT - rem)]);
}

/** Everything before the tensor data: header, metadata, tensor infos, padding. */
function encodeHeader(file: GgufFile): Buffer {
  const sink = new ByteSink();
  sink.push(Buffer.from('GGUF', 'ascii'));
  sink.u32(3);
  sink.u64(file.tensors.length);
  const entries = Object.entries(file.metadata);
  sink.u64(entries.length);
  for (const [key, value] of entries) {
    sink.str(key);
    writeValue(sink, value);
  }
  let offset = 0;
  for (const t of file.tensors) {
    const type = t.type ?? 'f32';
    const count = valueCount(t);
    if (typeof t.data !== 'function' && count !== t.data.length)
      throw new Error(`tensor ${t.name}: dims hold ${count} values, data has ${t.data.length}`);
    sink.str(t.name);
    sink.u32(t.dims.length);
    for (const d of t.dims) sink.u64(d);
    sink.u32(GGML_TYPE[type]);
    sink.u64(offset);
    offset += Math.ceil((count * BYTES_PER_VALUE[type]) / ALIGNMENT) * ALIGNMENT;
  }
  sink.pad();
  return sink.toBuffer();
}

export function encodeGguf(file: GgufFile): Buffer {
  return Buffer.concat([encodeHeader(file), ...file.tensors.map(tensorBytes)]);
}

/** Writes the file one tensor at a time (a tensor given as a function is made only when written). */
export async function writeGguf(path: string, file: GgufFile): Promise<void> {
  const handle = await open(path, 'w');
  const put = async (bytes: Buffer) => {
    // A write may take fewer bytes than given; the rest goes in the next.
    for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at)).bytesWritten;
  };
  try {
    await put(encodeHeader(file));
    for (const t of file.tensors) await put(tensorBytes(t));
  } finally {
    await handle.close();
  }
}
