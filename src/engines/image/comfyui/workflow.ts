import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../../../config/load.js';

export type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: unknown }>;

export interface InputRef {
  node: string;
  input: string;
}

/** Which node input receives each value of the job; prompt, width, height and seed are required. */
export interface InputMap {
  prompt: InputRef;
  negative_prompt?: InputRef | undefined;
  width: InputRef;
  height: InputRef;
  seed: InputRef;
  steps?: InputRef | undefined;
  sampler?: InputRef | undefined;
  scheduler?: InputRef | undefined;
  cfg?: InputRef | undefined;
}

/** Reads an API-format workflow ("Save (API)" in ComfyUI) and checks that every mapped input exists. */
export function loadWorkflow(file: string, configDir: string, map: InputMap, where: string): Workflow {
  const full = path.resolve(configDir, file);
  let workflow: Workflow;
  try {
    workflow = JSON.parse(readFileSync(full, 'utf8')) as Workflow;
  } catch (err) {
    throw new ConfigError(`config: ${where}.workflow: cannot read ${full} as JSON (${(err as Error).message})`);
  }
  if (workflow === null || typeof workflow !== 'object' || Array.isArray(workflow)) {
    throw new ConfigError(`config: ${where}.workflow: ${full} is not an API-format workflow (an object of nodes)`);
  }
  for (const [name, ref] of Object.entries(map)) {
    if (ref === undefined) continue;
    const node = workflow[ref.node];
    if (!node || typeof node.inputs !== 'object') {
      throw new ConfigError(`config: ${where}.inputs.${name}: node "${ref.node}" is not in ${full}`);
    }
    if (!(ref.input in node.inputs)) {
      throw new ConfigError(
        `config: ${where}.inputs.${name}: node "${ref.node}" (${node.class_type}) has no input "${ref.input}"; it has ${Object.keys(node.inputs).join(', ')}`,
      );
    }
  }
  return workflow;
}

/** A copy of the workflow with these values written into the mapped inputs. */
export function fillWorkflow(
  template: Workflow,
  map: InputMap,
  values: Partial<Record<keyof InputMap, unknown>>,
): Workflow {
  const workflow = structuredClone(template);
  for (const [name, value] of Object.entries(values)) {
    const ref = map[name as keyof InputMap];
    if (ref === undefined || value === undefined) continue;
    workflow[ref.node]!.inputs[ref.input] = value;
  }
  return workflow;
}
