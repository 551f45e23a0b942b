import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../errors/errors.js';
import { loadMcpHandler, type McpHandler } from '../routes/mcp/mcp-handler.js';
import { MCP_TOOLS } from '../routes/mcp/mcp-tools.js';
import { admitKey, identifyKey } from '../server/key-admission.js';
import { priceCall } from '../services/billing/priced-call.js';
import type { PlatformServices } from '../services/platform-services.js';
import { trackRequest } from './track-request.js';

/** How many `tools/call` messages a body carries (a JSON-RPC batch may carry several). */
function toolCalls(body: unknown): number {
  const isCall = (m: unknown) =>
    typeof m === 'object' && m !== null && (m as Record<string, unknown>)['method'] === 'tools/call';
  return Array.isArray(body) ? body.filter(isCall).length : isCall(body) ? 1 : 0;
}

const API_ENDPOINTS = ['general', 'coding'] as const;

/** JSON-RPC's answer to a GET or DELETE: the servers are stateless, with nothing to stream or end. */
const NOT_ALLOWED = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST only' }, id: null };

/**
 * The remote MCP servers (`/api/mcp/<server>/mcp`, docs/wire.md "MCP servers"): web search and
 * the web reader as tools. Every request needs a key, checked as for the API (401 before the body is
 * read); a `tools/call` is admitted under the key's and its account's limits like the operation it stands for (`web_search`, `reader`),
 * reserves that operation's price, gets one usage record of that operation, and is cancelled
 * when its client leaves. Protocol messages (`initialize`, `tools/list`, notifications) cost
 * nothing and are not recorded.
 */
export async function mcpScope(app: FastifyInstance, options: { services: PlatformServices }): Promise<void> {
  const { services } = options;
  // As the API's operations: the key's address, expiry and endpoint (either: the tools stand for
  // operations of both), and its account's policy.
  const authenticate = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    identifyKey(services, request, request.headers.authorization, API_ENDPOINTS).then(() => done(), done);
  };
  for (const tool of MCP_TOOLS) {
    const url = `/api/mcp/${tool.server}/mcp`;
    // The SDK is loaded by the first request that needs it (a server may never serve MCP).
    let handler: Promise<McpHandler> | undefined;
    const handle: McpHandler = async (request, reply) => {
      handler ??= loadMcpHandler(tool, services);
      return (await handler)(request, reply);
    };
    app.route({
      method: 'POST',
      url,
      config: { operation: tool.operation },
      schema: { hide: true },
      onRequest: authenticate,
      preHandler: (request, reply, done) => {
        const calls = toolCalls(request.body);
        if (calls === 0) {
          done();
          return;
        }
        if (calls > 1) {
          done(invalidRequest('Invalid request: send one tools/call per request'));
          return;
        }
        admitKey(services, request)
          .then((release) => {
            trackRequest(request, reply, release, services);
            // Priced per call like the operation: reserved before the tool runs (1113 when it does not fit).
            const meter = request.usage?.meter;
            return meter === undefined ? undefined : priceCall(meter, tool.operation);
          })
          .then(() => done(), done);
      },
      handler: handle,
    });
    app.route({
      method: ['GET', 'DELETE'],
      url,
      schema: { hide: true },
      onRequest: authenticate,
      handler: (_request, reply) => reply.code(405).header('allow', 'POST').send(NOT_ALLOWED),
    });
  }
}
