import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { invalidRequest } from '../../errors/errors.js';
import type { IndexedDocument } from '../../search/types.js';
import { modelOverview } from '../../services/models/model-overview.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { giveCollection } from '../../services/search/collection-access.js';
import type { IndexJob } from '../../services/search/index-jobs.js';
import { actorOf } from '../audit-actor.js';
import { principalOf } from './principal-of.js';

const hide = { hide: true };
/** Largest JSONL file the console uploads; larger ones go through `gen-platform index import`. */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;
const Collection = Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' });
/** The account (id or email) a crawl or import gives its collection to; without one it stays as it is. */
const Account = Type.String({ minLength: 1, maxLength: 254 });

const CrawlBody = Type.Object(
  {
    url: Type.String({ pattern: '^https?://', maxLength: 2048 }),
    max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
    collection: Type.Optional(Collection),
    account: Type.Optional(Account),
  },
  { additionalProperties: false },
);
const ImportQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 256 })),
    collection: Type.Optional(Collection),
    account: Type.Optional(Account),
  },
  { additionalProperties: false },
);
const DocumentsQuery = Type.Object(
  {
    collection: Type.Optional(Collection),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,7}$' })),
  },
  { additionalProperties: false },
);

/** The search index is the admin's: refused to anyone else before a body is read (console/api.ts). */
const SEARCH_ADMIN = { adminOnly: 'manages the search index' };

const jobView = (j: IndexJob) => ({
  id: j.id,
  kind: j.kind,
  source: j.source,
  collection: j.collection ?? null,
  state: j.state,
  started_at: Math.floor(j.startedAt / 1000),
  ended_at: j.endedAt === undefined ? null : Math.floor(j.endedAt / 1000),
  indexed: j.indexed,
  failed: j.failed,
  pending: j.pending,
  messages: j.messages,
});

const documentView = (d: IndexedDocument) => ({ ...d, site: d.site ?? null, published: d.published ?? null });

/**
 * What the console runs the platform with: the models and their state, the search index (its
 * collections and documents, crawls and imports with their progress), and the playground's
 * short-lived token. The index is the admin's; models and tokens are anyone's who signed in.
 */
export async function platformRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/models', { schema: hide }, async (request) => {
    const admin = principalOf(request).kind === 'admin';
    const data = modelOverview(services.engines, services.config).map((m) => ({
      code: m.code,
      type: m.type,
      state: m.state,
      progress: m.state === 'downloading' ? m.progress : null,
      error: m.state === 'failed' ? m.error : null,
      in_flight: m.inFlight,
      waiting: m.waiting,
      deployments: m.deployments.map((d) => ({
        deployment: d.deployment,
        engine: d.engine,
        // Where an upstream runs is the operator's to know.
        target: admin ? d.target : null,
        state: d.state,
        progress: d.state === 'downloading' ? d.progress : null,
        error: d.state === 'failed' ? d.error : null,
        in_flight: d.inFlight,
        waiting: d.waiting,
        shared_by: d.sharedBy,
      })),
    }));
    return { data };
  });

  scope.post('/playground-token', { schema: hide }, async (request) => {
    const issued = await services.playgroundTokens.issue(principalOf(request), request.ip);
    return { token: issued.token, key_id: issued.keyId, expires_at: Math.floor(issued.expiresAt / 1000) };
  });

  scope.get('/search', { schema: { ...hide, querystring: DocumentsQuery }, config: SEARCH_ADMIN }, async (request) => {
    const query = request.query as { collection?: string; offset?: string };
    const offset = Number(query.offset ?? 0);
    const index = services.search.index;
    const [collections, documents] = await Promise.all([
      index.stats(),
      index.documents({ collection: query.collection, offset, limit: 50 }),
    ]);
    return {
      collections,
      offset,
      documents: documents.map(documentView),
      jobs: services.indexJobs.list().map(jobView),
    };
  });

  scope.post('/search/crawl', { schema: { ...hide, body: CrawlBody }, config: SEARCH_ADMIN }, async (request) => {
    const body = request.body as {
      url: string;
      max_pages?: number;
      depth?: number;
      collection?: string;
      account?: string;
    };
    const account = await giveCollection(services.search.index, services.accounts, body.collection, body.account);
    const job = jobView(
      services.indexJobs.crawl(body.url, {
        maxPages: body.max_pages ?? 50,
        depth: body.depth ?? 2,
        collection: body.collection,
      }),
    );
    await services.audit.record(actorOf(request), {
      action: 'search.crawl',
      target: `collection:${job.collection ?? 'default'}`,
      after: {
        job: job.id,
        url: body.url,
        max_pages: body.max_pages ?? 50,
        depth: body.depth ?? 2,
        ...(account === undefined ? {} : { account }),
      },
    });
    return job;
  });

  scope.addContentTypeParser(
    ['application/x-ndjson', 'application/jsonl'],
    { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES },
    (_request, body, done) => done(null, body),
  );
  scope.post(
    '/search/import',
    {
      schema: { ...hide, querystring: ImportQuery },
      bodyLimit: MAX_IMPORT_BYTES,
      config: { ...SEARCH_ADMIN, contentTypes: ['application/x-ndjson', 'application/jsonl'] },
    },
    async (request) => {
      const query = request.query as { name?: string; collection?: string; account?: string };
      const lines = request.body;
      if (!Buffer.isBuffer(lines) || lines.length === 0)
        throw invalidRequest('Invalid body: send the JSONL file itself, as application/x-ndjson');
      const account = await giveCollection(services.search.index, services.accounts, query.collection, query.account);
      const job = jobView(services.indexJobs.importJsonl(query.name ?? 'upload.jsonl', lines, query.collection));
      await services.audit.record(actorOf(request), {
        action: 'search.import',
        target: `collection:${job.collection ?? 'default'}`,
        after: { job: job.id, name: job.source, bytes: lines.length, ...(account === undefined ? {} : { account }) },
      });
      return job;
    },
  );
}
