import type { TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { WebReaderArgs, WebSearchPrimeArgs } from '../../api/mcp-tools.js';
import { tenantOf } from '../../server/tenant-of.js';
import type { PlatformServices } from '../../services/platform-services.js';
import type { CancelSignal } from '../../util/cancel-signal.js';

const decoder = new TextDecoder();

/** What a tool's call is handed: the services, the request it came in, its cancellation. */
export interface ToolCall<Args> {
  args: Args;
  services: PlatformServices;
  request: FastifyRequest;
  signal: CancelSignal;
}

/** One remote MCP server of the platform: where it is mounted, its one tool, and the operation it bills as. */
export interface McpTool<Args = never> {
  /** The server's path segment: `/api/mcp/<server>/mcp`. */
  server: string;
  name: string;
  description: string;
  /** The JSON Schema of the arguments: listed by `tools/list`, checked before `tools/call` runs. */
  input: TSchema;
  /** The API operation whose limits, usage records and prices a call shares. */
  operation: string;
  /** The call's result as text (JSON), or a thrown ApiError. */
  run(call: ToolCall<Args>): Promise<string>;
}

const defineTool = <Args>(tool: McpTool<Args>): McpTool<Args> => tool;

export const webSearchPrime = defineTool<WebSearchPrimeArgs>({
  server: 'web_search_prime',
  name: 'webSearchPrime',
  description:
    'Search the web index. Returns a JSON list of results, each with title, content (a snippet), link, media (site), icon, refer and publish_date.',
  input: WebSearchPrimeArgs,
  operation: 'web_search',
  async run({ args, services }) {
    const results = await services.search.search({
      engine: 'search-prime',
      query: args.search_query,
      count: args.count ?? 10,
      domain: args.search_domain_filter,
      recency: args.search_recency_filter,
    });
    return JSON.stringify(results);
  },
});

export const webReader = defineTool<WebReaderArgs>({
  server: 'web_reader',
  name: 'webReader',
  description:
    'Fetch a web page (or PDF) and return its main content as markdown (or text or html), as JSON with title, description, url, content and metadata.',
  input: WebReaderArgs,
  operation: 'reader',
  async run({ args, services, request, signal }) {
    // The tenant of the reader operation: extraction threads serve accounts, then their keys, in turn.
    const output = await services.reader.read(args, { signal, tenant: tenantOf(request), index: true });
    return decoder.decode(output.json);
  },
});

export const MCP_TOOLS: readonly McpTool[] = [webSearchPrime, webReader] as McpTool[];
