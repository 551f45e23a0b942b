import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { parseDocument } from 'yaml';
import { ConfigError } from './config-error.js';
import { applyOtelEnv } from './otel-env.js';
import { type Config, ConfigSchema } from './schema.js';

export { ConfigError };

export interface ConfigSources {
  /** `--config`; else `GEN_PLATFORM_CONFIG`; else `./gen-platform.yaml` when it exists. */
  file?: string | undefined;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Command-line flags, which win over the file and the environment. */
  flags?: { port?: number | undefined; host?: string | undefined; data?: string | undefined };
}

export interface LoadedConfig {
  config: Config;
  /** The file the configuration came from, if any. */
  file: string | undefined;
  /** What relative paths in the configuration resolve against: the file's folder, else the working directory. */
  configDir: string;
}

type Json = Record<string, unknown>;

function readFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`config file ${file} cannot be read: ${(err as Error).message}`);
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ConfigError(`config file ${file}: ${doc.errors[0]?.message}`);
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`config file ${file}: must be a mapping`);
  return value as Json;
}

function section(obj: Json, key: string): Json {
  const current = obj[key];
  if (current === undefined || current === null) obj[key] = {};
  else if (typeof current !== 'object' || Array.isArray(current))
    throw new ConfigError(`config: ${key} must be a mapping`);
  return obj[key] as Json;
}

function envPort(value: string): number {
  if (!/^\d+$/.test(value)) throw new ConfigError(`env PORT: must be an integer from 0 to 65535, got "${value}"`);
  return Number(value);
}

/** A folder named in the file is relative to the file's own folder, wherever the command runs. */
function resolvePath(raw: Json, key: string, field: string, baseDir: string): void {
  const part = raw[key];
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return;
  const value = (part as Json)[field];
  if (typeof value === 'string' && value !== '') (part as Json)[field] = path.resolve(baseDir, value);
}

function applyOverrides(raw: Json, sources: ConfigSources, baseDir: string): void {
  const { env, flags = {}, cwd } = sources;
  if (typeof raw['data_dir'] === 'string') raw['data_dir'] = path.resolve(baseDir, raw['data_dir']);
  resolvePath(raw, 'embedded', 'models_dir', baseDir);
  resolvePath(raw, 'files', 'dir', baseDir);
  resolvePath(raw, 'llama_server', 'binary', baseDir);
  resolvePath(raw, 'llama_server', 'cache_dir', baseDir);
  if (env['GEN_PLATFORM_DATA']) raw['data_dir'] = path.resolve(cwd, env['GEN_PLATFORM_DATA']);
  if (env['PORT']) section(raw, 'server')['port'] = envPort(env['PORT']);
  if (env['HOST']) section(raw, 'server')['host'] = env['HOST'];
  if (env['DATABASE_URL']) section(raw, 'database')['url'] = env['DATABASE_URL'];
  if (env['REDIS_URL']) section(raw, 'redis')['url'] = env['REDIS_URL'];
  if (env['LOG_LEVEL']) section(raw, 'log')['level'] = env['LOG_LEVEL'];
  if (env['LOG_FORMAT']) section(raw, 'log')['format'] = env['LOG_FORMAT'];
  if (env['GEN_PLATFORM_SECRET_KEY']) section(raw, 'security')['secret_key'] = env['GEN_PLATFORM_SECRET_KEY'];
  if (env['GEN_PLATFORM_ADMIN_KEY']) section(raw, 'security')['admin_key'] = env['GEN_PLATFORM_ADMIN_KEY'];
  applyOtelEnv(section(raw, 'tracing'), env);
  if (flags.port !== undefined) section(raw, 'server')['port'] = flags.port;
  if (flags.host !== undefined) section(raw, 'server')['host'] = flags.host;
  if (flags.data !== undefined) raw['data_dir'] = path.resolve(cwd, flags.data);
  if (raw['data_dir'] === undefined) raw['data_dir'] = path.resolve(cwd, 'data');
  const llamaServer = section(raw, 'llama_server');
  llamaServer['cache_dir'] ??= path.join(env['XDG_CACHE_HOME'] || path.join(homedir(), '.cache'), 'gen-platform-llama');
}

/** Deployments name the variable that holds their upstream key; it is read here, with the rest of the environment. */
function resolveKeyVariables(raw: Json, env: ConfigSources['env']): void {
  const models = raw['models'];
  if (typeof models !== 'object' || models === null) return;
  for (const [code, model] of Object.entries(models as Record<string, { deployments?: unknown }>)) {
    if (!Array.isArray(model?.deployments)) continue;
    model.deployments.forEach((d: Record<string, unknown>, i) => {
      const name = d?.['api_key_env'];
      if (typeof name !== 'string') return;
      const value = env[name];
      if (!value)
        throw new ConfigError(
          `config: models.${code}.deployments[${i}].api_key_env: environment variable ${name} is not set`,
        );
      d['api_key'] = value;
    });
  }
}

function describeErrors(value: unknown): string | undefined {
  const first = Value.Errors(ConfigSchema, value).First();
  if (!first) return undefined;
  const key = first.path.replace(/^\//, '').replaceAll('/', '.') || '(root)';
  const rule = first.schema.description ? ` (${first.schema.description})` : '';
  return `config: ${key}: ${first.message}, got ${JSON.stringify(first.value)}${rule}`;
}

/** Reads the file, applies environment and flags, fills defaults and validates, once, at start-up. */
export function loadConfig(sources: ConfigSources): LoadedConfig {
  const explicit = sources.file ?? sources.env['GEN_PLATFORM_CONFIG'];
  const fallback = path.resolve(sources.cwd, 'gen-platform.yaml');
  const file = explicit ? path.resolve(sources.cwd, explicit) : existsSync(fallback) ? fallback : undefined;
  const raw = file ? readFile(file) : {};
  applyOverrides(raw, sources, file ? path.dirname(file) : sources.cwd);
  resolveKeyVariables(raw, sources.env);
  const withDefaults = Value.Default(ConfigSchema, raw);
  const problem = describeErrors(withDefaults);
  if (problem) throw new ConfigError(file ? `${problem} [${file}]` : problem);
  return { config: withDefaults as Config, file, configDir: file ? path.dirname(file) : sources.cwd };
}
