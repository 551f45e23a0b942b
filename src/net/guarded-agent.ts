import { Agent, buildConnector } from 'undici';
import type { AllowList } from './allow-list.js';
import { type LookupFunction, resolveGuarded } from './resolve.js';

/**
 * An undici Agent whose every new connection resolves the host itself, checks each address, and
 * connects to the checked address (TLS keeps the original name for SNI and certificate checks). The
 * check therefore happens at connect time for every hop, and a second DNS answer cannot differ from
 * the one that was checked.
 */
export function createGuardedAgent(allowList: AllowList, lookup: LookupFunction): Agent {
  const base = buildConnector({ timeout: 10_000 });
  const connect: buildConnector.connector = (options, callback) => {
    resolveGuarded(options.hostname, allowList, lookup).then(
      (addresses) => {
        const first = addresses[0];
        if (!first) return callback(new Error(`no address for ${options.hostname}`), null);
        const servername = options.servername ?? (first.address === options.hostname ? undefined : options.hostname);
        base(
          { ...options, hostname: first.address, ...(servername && !isIpLiteral(servername) ? { servername } : {}) },
          callback,
        );
      },
      (error: Error) => callback(error, null),
    );
  };
  return new Agent({ connect, keepAliveTimeout: 4_000 });
}

const isIpLiteral = (host: string): boolean => /^[\d.]+$/.test(host) || host.includes(':');
