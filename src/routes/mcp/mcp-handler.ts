import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { internalError } from '../../errors/errors.js';
import { SPEC_VERSION } from '../../server/docs-page.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { usageNotRecorded } from '../../services/usage/usage-recorder.js';
import { RequestCancel } from '../../util/cancel-signal.js';
import type { McpTool } from './mcp-tools.js';

/** Answers one HTTP request to a remote MCP server. */
export type McpHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** A tool's answer that the model reads as a failure: the API's code and message. */
function failed(err: ApiError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `Error ${err.code}: ${err.message}` }] };
}

/** The request as the SDK's web-standard transport takes it; the body is handed over already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  return new Request(`http://mcp.invalid${request.url}`, { method: request.method, headers });
}

/**
 * Answers one POST to a remote MCP server with the official SDK, statelessly: each request gets
 * a server and a transport of its own (no `Mcp-Session-Id`), so any process behind a balancer can
 * answer any request, and the replies are plain JSON. Only `tools/call` does work: the edge has
 * admitted it under the key's limits and tracks its usage record (operation `tool.operation`);
 * the record is made durable before the tool's result is sent.
 */
export async function loadMcpHandler(tool: McpTool, services: PlatformServices): Promise<McpHandler> {
  // The SDK (about 8 MB of heap with zod and ajv, a second or more to load) is loaded on first use.
  const [
    { Server },
    { WebStandardStreamableHTTPServerTransport },
    { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError },
    { AjvJsonSchemaValidator },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]);
  const check = new AjvJsonSchemaValidator().getValidator<never>(tool.input as never);

  const call = async (request: FastifyRequest, name: string, args: unknown): Promise<CallToolResult> => {
    // The usage record's own failure is logged, never the tool's answer (the journal keeps the record).
    const commit = (status: number) =>
      (request.commitUsage?.(status) ?? Promise.resolve()).catch((err: unknown) =>
        request.log.error({ err }, 'usage record of an MCP tool call not committed'),
      );
    if (name !== tool.name) {
      void commit(400);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}": this server has ${tool.name}`);
    }
    const checked = check(args ?? {});
    if (!checked.valid) {
      void commit(400);
      return {
        isError: true,
        content: [{ type: 'text', text: `Error 1214: Invalid arguments of ${tool.name}: ${checked.errorMessage}` }],
      };
    }
    const running = tool.run({
      args: checked.data,
      services,
      request,
      signal: request.cancel ?? new RequestCancel(),
    });
    request.handling = running;
    let text: string;
    try {
      text = await running;
    } catch (err) {
      const known = err instanceof ApiError ? err : internalError(request.id);
      if (!(err instanceof ApiError)) request.log.error({ err }, 'internal error');
      void commit(known.status);
      return failed(known);
    }
    try {
      await commit(200);
    } catch (err) {
      return failed(usageNotRecorded(err));
    }
    return { content: [{ type: 'text', text }] };
  };

  return async (request, reply) => {
    const server = new Server(
      { name: tool.server.replaceAll('_', '-'), version: SPEC_VERSION },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: tool.name, description: tool.description, inputSchema: tool.input as never }],
    }));
    server.setRequestHandler(CallToolRequestSchema, (req) => call(request, req.params.name, req.params.arguments));
    // No session id generator: stateless, each request stands alone.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      reply.code(response.status);
      const type = response.headers.get('content-type');
      if (type) reply.type(type);
      const body = await response.text();
      return reply.send(body);
    } finally {
      await server.close();
    }
  };
}
