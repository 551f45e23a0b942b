import { stringify } from 'yaml';

/** Every chat model code of the spec. */
export const CHAT_MODEL_CODES = [
  'gen-5.2',
  'gen-5.1',
  'gen-5-turbo',
  'gen-5',
  'gen-4.7',
  'gen-4.7-flash',
  'gen-4.7-flashx',
  'gen-4.6',
  'gen-4.6v',
  'gen-4.5',
  'gen-4.5-air',
  'gen-4.5-x',
  'gen-4.5-airx',
  'gen-4.5-flash',
  'gen-4-32b-0414-128k',
] as const;

/** A config that serves every chat model code from one local GGUF on the embedded engine. */
export function exampleConfigYaml(modelPath: string): string {
  const deployment = { engine: 'llama-cpp', model: modelPath, threads: 1, context_size: 2048, parallel: 2 };
  const models = Object.fromEntries(CHAT_MODEL_CODES.map((code) => [code, { deployments: [{ ...deployment }] }]));
  return stringify({ models });
}
