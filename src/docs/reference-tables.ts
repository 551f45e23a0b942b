import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from '../config/schema.js';
import { DeploymentCapSchema } from '../engines/chat/deployment-cap.js';
import { CHAT_ENGINES } from '../engines/chat/registry.js';
import { IMAGE_ENGINES } from '../engines/image/registry.js';
import { ERROR_CODES } from '../errors/codes.js';

/** Markdown tables that docs/*.md embed between markers; a test fails when a doc drifts. */
export function errorCodesTable(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, spec]) => `| ${code} | ${spec.status} | ${spec.retryable ? 'yes' : 'no'} | ${spec.meaning} |`,
  );
  return ['| code | HTTP | retry helps | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

interface KeyRow {
  key: string;
  type: string;
  default: string;
  description: string;
}

function typeOf(schema: TSchema): string {
  if (schema['anyOf']) return (schema['anyOf'] as TSchema[]).map((s) => JSON.stringify(s['const'])).join(' \\| ');
  if (schema['type'] === 'object' && schema['patternProperties']) return 'map';
  return String(schema['type'] ?? 'any');
}

function walk(schema: TSchema, prefix: string, rows: KeyRow[], root: TSchema = ConfigSchema): void {
  const properties = schema['properties'] as Record<string, TSchema> | undefined;
  if (schema['type'] !== 'object' || !properties) return;
  for (const [name, child] of Object.entries(properties)) {
    const key = prefix ? `${prefix}.${name}` : name;
    const nested = child['type'] === 'object' && child['properties'];
    if (!nested || schema === root) {
      rows.push({
        key,
        type: typeOf(child),
        default: child['default'] === undefined ? '(unset)' : `\`${JSON.stringify(child['default'])}\``,
        description: String(child['description'] ?? ''),
      });
    }
    if (nested) walk(child, key, rows, root);
  }
}

function keysTable(schema: TSchema): string {
  const rows: KeyRow[] = [];
  walk(schema, '', rows, schema);
  const lines = rows
    .filter((r) => r.type !== 'object')
    .map((r) => `| \`${r.key}\` | ${r.type} | ${r.default} | ${r.description.replaceAll('|', '\\|')} |`);
  return ['| key | type | default | meaning |', '|---|---|---|---|', ...lines].join('\n');
}

export const configKeysTable = (): string => keysTable(ConfigSchema);

/** One table per engine: the keys of a deployment under `models.<code>.deployments[]`. */
export function engineKeysTables(): string {
  const every = `### Every chat deployment, whatever its engine\n\n${keysTable(DeploymentCapSchema)}`;
  const engines = Object.entries(CHAT_ENGINES).map(
    ([name, factory]) => `### \`engine: ${name}\`\n\n${keysTable(factory.schema)}`,
  );
  return [every, ...engines].join('\n\n');
}

/** One table per image engine: the keys of a deployment under `models.gen-image.deployments[]`. */
export function imageEngineKeysTables(): string {
  return Object.entries(IMAGE_ENGINES)
    .map(([name, factory]) => `### image \`engine: ${name}\`\n\n${keysTable(factory.schema)}`)
    .join('\n\n');
}

export const GENERATED_SECTIONS: Record<string, Record<string, () => string>> = {
  'docs/errors.md': { 'error-codes': errorCodesTable },
  'docs/configuration.md': {
    'config-keys': configKeysTable,
    'engine-keys': engineKeysTables,
    'image-engine-keys': imageEngineKeysTables,
  },
};

/** Replaces each `<!-- generated:NAME -->...<!-- /generated:NAME -->` block with its table. */
export function fillSections(text: string, sections: Record<string, () => string>): string {
  let out = text;
  for (const [name, make] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`missing generated section ${name}`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}\n${make()}\n${close}`);
  }
  return out;
}
