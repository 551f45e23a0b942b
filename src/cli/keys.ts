import { userInfo } from 'node:os';
import { ConfigError, loadConfig } from '../config/load.js';
import type { KeyLimits } from '../config/schema.js';
import { ApiError } from '../errors/api-error.js';
import type { Actor } from '../services/audit/audit-service.js';
import { openKeyServices } from '../services/create-services.js';
import type { KeyChange } from '../services/keys/key-admin.js';
import { applyPolicy, type PolicyInput, splitList } from '../services/keys/policy-input.js';
import type { Endpoint, KeyPolicy } from '../stores/types.js';
import { parse, positiveInt, UsageError } from './args.js';
import type { CliEnv } from './cli-env.js';
import { KEYS_HELP } from './command-help.js';
import { commandHelp } from './help.js';

export const KEYS_USAGE = commandHelp(KEYS_HELP);

/** The CLI's acts are recorded as the operating-system user's, from no network address. */
export function cliActor(): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (a container): the act is still recorded, as `cli:unknown`.
  }
  return { id: `cli:${user}` };
}

function parseEndpoints(value: string | undefined): Endpoint[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((e) => e !== 'general' && e !== 'coding');
  if (bad !== undefined || list.length === 0)
    throw new UsageError(`--endpoints takes general and/or coding, got "${value}"`);
  return [...new Set(list)] as Endpoint[];
}

/** The key's own limits when any flag sets one; a limit no flag sets is the configured default's. */
function parseLimits(
  v: { concurrent?: string; rpm?: string; window?: string[] },
  defaults: KeyLimits,
): KeyLimits | undefined {
  if (v.concurrent === undefined && v.rpm === undefined && !v.window?.length) return undefined;
  const windows = (v.window ?? []).map((w) => {
    const m = /^(\d+)\/(\d+(?:\.\d+)?)h$/.exec(w);
    if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0)
      throw new UsageError(`--window takes REQUESTS/HOURSh, e.g. 100/5h; got "${w}"`);
    return { requests: Number(m[1]), hours: Number(m[2]) };
  });
  return {
    concurrent: positiveInt('concurrent', v.concurrent) ?? defaults.concurrent,
    requests_per_minute: positiveInt('rpm', v.rpm) ?? defaults.requests_per_minute,
    windows: v.window?.length ? windows : defaults.windows,
  };
}

interface PolicyFlags {
  models?: string;
  expires?: string;
  'allowed-ips'?: string;
  description?: string;
}

/** The policy the flags make of `base`; bad input is a usage error naming the flag. */
function policyFromFlags(v: PolicyFlags, base: KeyPolicy | undefined): KeyPolicy | undefined {
  const input: PolicyInput = {};
  if (v.models !== undefined) input.models = splitList(v.models);
  if (v.expires !== undefined) input.expires_at = v.expires === 'never' ? null : v.expires;
  if (v['allowed-ips'] !== undefined) input.allowed_ips = splitList(v['allowed-ips']);
  if (v.description !== undefined) input.description = v.description;
  try {
    return applyPolicy(base, input);
  } catch (err) {
    if (err instanceof ApiError) throw new UsageError(err.message.replace('expires_at', '--expires'));
    throw err;
  }
}

const describePolicy = (p: KeyPolicy | undefined): string =>
  [
    p?.models?.length ? `models ${p.models.join(',')}` : '',
    p?.expiresAt === undefined ? '' : `expires ${new Date(p.expiresAt).toISOString()}`,
    p?.allowedIps?.length ? `from ${p.allowedIps.join(',')}` : '',
  ]
    .filter(Boolean)
    .join('; ');

export async function keysCommand(argv: string[], env: CliEnv): Promise<number> {
  const { values, positionals } = parse(argv, {
    name: { type: 'string' },
    account: { type: 'string' },
    endpoints: { type: 'string' },
    concurrent: { type: 'string' },
    rpm: { type: 'string' },
    window: { type: 'string', multiple: true },
    models: { type: 'string' },
    expires: { type: 'string' },
    'allowed-ips': { type: 'string' },
    description: { type: 'string' },
    grace: { type: 'string' },
  });
  const [action, ...rest] = positionals;
  if (values.help) {
    env.out(KEYS_USAGE);
    return 0;
  }
  if (!action) throw new UsageError('keys needs an action: create, update, roll, list or revoke');
  const { config } = loadConfig({
    file: values.config as string | undefined,
    cwd: env.cwd,
    env: env.vars,
    flags: { data: values.data as string | undefined },
  });
  // Keys live in the store: a key command opens nothing of the engines, and needs none of their files.
  const services = await openKeyServices(config);
  try {
    switch (action) {
      case 'create': {
        const name = values.name as string | undefined;
        if (!name) throw new UsageError('keys create needs --name NAME');
        const accountArg = values.account as string | undefined;
        const holder = accountArg === undefined ? undefined : await services.accounts.findAccount(accountArg);
        if (accountArg !== undefined && !holder) throw new UsageError(`--account: no account "${accountArg}"`);
        const { key, record } = await services.keyAdmin.create(cliActor(), {
          name,
          endpoints: parseEndpoints(values.endpoints as string | undefined),
          limits: parseLimits(values as { concurrent?: string; rpm?: string; window?: string[] }, config.limits),
          policy: policyFromFlags(values as PolicyFlags, undefined),
          accountId: holder?.id,
        });
        const policy = describePolicy(record.policy);
        env.out(
          `Created key ${record.id} (${record.name}) for endpoints: ${record.endpoints.join(', ')}${policy ? `; ${policy}` : ''}.`,
        );
        env.out('The key is shown only this once:');
        env.out(key);
        return 0;
      }
      case 'list': {
        const keys = await services.keys.list();
        if (keys.length === 0) env.out('No keys.');
        for (const k of keys) {
          const state = k.revokedAt === undefined ? 'active' : `revoked ${new Date(k.revokedAt).toISOString()}`;
          const policy = describePolicy(k.policy);
          env.out(
            `${k.id}  ${k.role.padEnd(5)}  ${k.endpoints.join(',').padEnd(14)}  ${state.padEnd(7)}  ${k.name}${policy ? `  (${policy})` : ''}`,
          );
        }
        return 0;
      }
      case 'update': {
        const id = rest[0]?.split('.')[0];
        if (!id) throw new UsageError('keys update needs the key ID (the part before the dot)');
        const before = await services.keys.get(id);
        if (!before) {
          env.err(`No key with id ${id}.`);
          return 1;
        }
        // A flag left out leaves its setting as it is; the policy is recomputed from the key's own.
        const change: KeyChange = { policy: policyFromFlags(values as PolicyFlags, before.policy) ?? null };
        if (values.name !== undefined) change.name = values.name as string;
        const endpoints = parseEndpoints(values.endpoints as string | undefined);
        if (endpoints !== undefined) change.endpoints = endpoints;
        const limits = parseLimits(values as { concurrent?: string; rpm?: string; window?: string[] }, config.limits);
        if (limits !== undefined) change.limits = limits;
        const after = await services.keyAdmin.update(cliActor(), id, change);
        const policy = describePolicy(after?.policy);
        env.out(`Updated key ${id}${policy ? `: ${policy}` : ''}.`);
        return 0;
      }
      case 'roll': {
        const id = rest[0]?.split('.')[0];
        if (!id) throw new UsageError('keys roll needs the key ID (the part before the dot)');
        const grace = positiveInt('grace', values.grace as string | undefined) ?? 0;
        const rolled = await services.keyAdmin.roll(cliActor(), id, grace * 1000);
        if (!rolled) {
          env.err(`No active key with id ${id}.`);
          return 1;
        }
        env.out(
          grace > 0
            ? `Rolled key ${id}: the old secret works until ${new Date(rolled.record.previous!.until).toISOString()}.`
            : `Rolled key ${id}: the old secret no longer works.`,
        );
        env.out('The new key is shown only this once:');
        env.out(rolled.key);
        return 0;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) throw new UsageError('keys revoke needs the key ID (the part before the dot)');
        const found = await services.keyAdmin.revoke(cliActor(), id.split('.')[0]!);
        if (!found) {
          env.err(`No key with id ${id}.`);
          return 1;
        }
        env.out(`Revoked key ${id.split('.')[0]}.`);
        return 0;
      }
      default:
        throw new UsageError(`unknown keys action "${action}"`);
    }
  } finally {
    await services.close();
  }
}

export { ConfigError };
