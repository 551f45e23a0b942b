import { writeFile } from 'node:fs/promises';

/**
 * A minimal GGUF v3 writer: metadata key/values and F32 tensors, enough to build tiny test models
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
  data: Float32Array;
}

export interface GgufFile {
  metadata: Record<string, GgufValue>;
  tensors: readonly GgufTensor[];
}

const ALIGNMENT = 32;
const GGML_TYPE_F32 = 0;
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

export function encodeGguf(file: GgufFile): Buffer {
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
    const count = t.dims.reduce((a, b) => a * b, 1);
    if (count !== t.data.length)
      throw new Error(`tensor ${t.name}: dims hold ${count} values, data has ${t.data.length}`);
    sink.str(t.name);
    sink.u32(t.dims.length);
    for (const d of t.dims) sink.u64(d);
    sink.u32(GGML_TYPE_F32);
    sink.u64(offset);
    offset += Math.ceil((count * 4) / ALIGNMENT) * ALIGNMENT;
  }
  sink.pad();
  for (const t of file.tensors) {
    sink.push(Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    sink.pad();
  }
  return sink.toBuffer();
}

export async function writeGguf(path: string, file: GgufFile): Promise<void> {
  await writeFile(path, encodeGguf(file));
}
