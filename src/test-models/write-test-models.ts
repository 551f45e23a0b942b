import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeGguf } from './gguf-writer.js';
import { programmedModel } from './programmed-model.js';
import { randomModel } from './random-model.js';

export interface TestModelPaths {
  /** Random weights: loads and generates fast, says nothing meaningful. */
  random: string;
  /** Deterministic text, JSON and tool-call answers (see programmed-model.ts). */
  programmed: string;
  /** The programmed model, thinking `<think>Let me think...</think>` before its reply. */
  thinking: string;
}

export async function writeTestModels(dir: string): Promise<TestModelPaths> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const paths: TestModelPaths = {
    random: join(root, 'random.gguf'),
    programmed: join(root, 'programmed.gguf'),
    thinking: join(root, 'programmed-thinking.gguf'),
  };
  await writeGguf(paths.random, randomModel());
  await writeGguf(paths.programmed, programmedModel());
  await writeGguf(paths.thinking, programmedModel({ thinking: true }));
  return paths;
}
