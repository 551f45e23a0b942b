import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { CHAT_ENGINES } from '../../src/engines/chat/registry.js';
import { resolveDeployments } from '../../src/services/chat/chat-deployments.js';
import { contextSources, parseDockerfile } from './dockerfile-check.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const DEFAULT_GRACE = (ConfigSchema.properties.shutdown.properties.grace_seconds as { default: number }).default;

/** Loads a gen-platform config text as the server would (file + defaults + validation + deployments). */
function checkConfig(text: string): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'gp-deploy-'));
  try {
    const file = path.join(dir, 'gen-platform.yaml');
    writeFileSync(file, text);
    const { config } = loadConfig({ file, cwd: dir, env: {} });
    resolveDeployments(config, CHAT_ENGINES);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** systemd unit files: [Section] headers and Key=Value lines; returns section → key → values. */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      current = new Map();
      sections.set(header[1]!, current);
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(line);
    if (!kv || !current) throw new Error(`line ${i + 1}: not Key=Value inside a section: ${line}`);
    current.set(kv[1]!, [...(current.get(kv[1]!) ?? []), kv[2]!]);
  }
  return sections;
}

describe('deploy/gen-platform.service (systemd)', () => {
  const unit = parseUnit(read('deploy/gen-platform.service'));
  it('parses, with [Unit], [Service] and [Install]', () => {
    expect([...unit.keys()].sort()).toEqual(['Install', 'Service', 'Unit']);
    expect(unit.get('Install')!.get('WantedBy')).toEqual(['multi-user.target']);
  });
  it('runs serve as an unprivileged user and waits longer than the drain before SIGKILL', () => {
    const service = unit.get('Service')!;
    expect(service.get('ExecStart')![0]).toMatch(/^\/\S+ \S+main\.js serve /);
    expect(service.get('User')![0]).not.toBe('root');
    expect(service.get('KillSignal')).toEqual(['SIGTERM']);
    expect(Number(service.get('TimeoutStopSec')![0])).toBeGreaterThan(DEFAULT_GRACE);
  });
});

describe('deploy/Dockerfile', () => {
  const { stages } = parseDockerfile(read('deploy/Dockerfile'));
  it('is multi-stage, installs production dependencies with npm ci --omit=dev, runs as non-root', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const all = stages.flatMap((s) => s.instructions);
    expect(all.some((x) => x.keyword === 'RUN' && x.args.includes('npm ci --omit=dev'))).toBe(true);
    const final = stages.at(-1)!;
    const user = final.instructions.filter((x) => x.keyword === 'USER').at(-1);
    expect(user?.args).toBeDefined();
    expect(['root', '0']).not.toContain(user!.args.split(':')[0]);
    expect(final.instructions.some((x) => x.keyword === 'HEALTHCHECK' && x.args.includes('/health'))).toBe(true);
    expect(final.instructions.find((x) => x.keyword === 'ENTRYPOINT')?.args).toContain('dist/src/main.js');
  });
  it('copies only what exists in the repository', () => {
    for (const source of contextSources(stages)) expect(existsSync(path.join(ROOT, source)), source).toBe(true);
  });
  it('the checker refuses broken Dockerfiles', () => {
    expect(() => parseDockerfile('RUN echo before FROM\n')).toThrow(/FROM/);
    expect(() => parseDockerfile('FROM node:20\nRUNN echo\n')).toThrow(/unknown instruction/);
    expect(() => parseDockerfile('FROM node:20\nCMD ["a", 1]\n')).toThrow(/array of strings/);
    expect(() => parseDockerfile('FROM node:20\nCOPY --from=nowhere /a /b\n')).toThrow(/no earlier stage/);
    expect(() => parseDockerfile('FROM node:20\nRUN a \\')).toThrow(/continuation/);
  });
});

describe('deploy/kubernetes', () => {
  const docs = (file: string) => {
    const parsed = parseAllDocuments(read(file));
    for (const d of parsed) expect(d.errors, file).toEqual([]);
    // biome-ignore lint/suspicious/noExplicitAny: parsed YAML, navigated by the assertions themselves
    return parsed.map((d) => d.toJS() as Record<string, any>);
  };

  it('gen-platform.yaml: a Deployment with probes on /health, a Service that selects it, a ConfigMap the server accepts', () => {
    const all = docs('deploy/kubernetes/gen-platform.yaml');
    for (const d of all) {
      expect(d['apiVersion']).toBeTypeOf('string');
      expect(d['metadata']['name']).toBeTypeOf('string');
    }
    const deployment = all.find((d) => d['kind'] === 'Deployment')!;
    const service = all.find((d) => d['kind'] === 'Service')!;
    const configMap = all.find((d) => d['kind'] === 'ConfigMap')!;
    const pod = deployment['spec']['template'];
    const container = pod['spec']['containers'][0];
    const portNames = container['ports'].map((p: { name: string }) => p.name);
    for (const probe of ['readinessProbe', 'livenessProbe']) {
      expect(container[probe]['httpGet']['path']).toBe('/health');
      expect(portNames).toContain(container[probe]['httpGet']['port']);
    }
    for (const [k, v] of Object.entries(service['spec']['selector'])) expect(pod['metadata']['labels'][k]).toBe(v);
    for (const p of service['spec']['ports']) expect(portNames).toContain(p.targetPort);
    const config = configMap['data']['gen-platform.yaml'] as string;
    const grace = (parseYaml(config) as { shutdown: { grace_seconds: number } }).shutdown.grace_seconds;
    expect(pod['spec']['terminationGracePeriodSeconds']).toBeGreaterThan(grace);
    expect(() => checkConfig(config)).not.toThrow();
  });

  it('vllm-fleet.yaml: a headless Service and a StatefulSet whose replicas the ConfigMap names', () => {
    const all = docs('deploy/kubernetes/vllm-fleet.yaml');
    const service = all.find((d) => d['kind'] === 'Service')!;
    const set = all.find((d) => d['kind'] === 'StatefulSet')!;
    expect(service['spec']['clusterIP']).toBe('None');
    expect(set['spec']['serviceName']).toBe(service['metadata']['name']);
  });
});

describe('deploy/upstream-fleet.yaml', () => {
  it('is a config the server accepts, with pools of OpenAI-compatible deployments', () => {
    const text = read('deploy/upstream-fleet.yaml');
    expect(() => checkConfig(text)).not.toThrow();
    const models = (parseYaml(text) as { models: Record<string, { deployments: unknown[] }> }).models;
    expect(models['gen-4.6']!.deployments.length).toBeGreaterThan(1);
  });
});

describe('shipped examples trust only configured proxy hops', () => {
  it('no file under deploy/ or docs/, nor the README, sets trust_proxy: true', () => {
    const files: string[] = ['README.md'];
    const walk = (dir: string) => {
      for (const name of readdirSync(path.join(ROOT, dir))) {
        const rel = path.join(dir, name);
        if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
        else files.push(rel);
      }
    };
    walk('deploy');
    walk('docs');
    for (const file of files) expect(read(file), file).not.toMatch(/trust_?proxy["']?\s*[:=]\s*true/i);
  });
});
