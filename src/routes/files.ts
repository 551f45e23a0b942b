import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorReply } from '../api/error-reply.js';
import { unknownApi } from '../errors/errors.js';
import type { FileStore, StoredFile } from '../files/types.js';

const FileParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
/** The file's bytes, in its own content type (never serialised: a Buffer goes out as it is). */
const FileBytes = Type.String({ format: 'binary', description: 'The file, in its own content type' });

/** Where a stored file is served: its id and the extension of its type, e.g. `/files/<id>.png`. */
export const filePath = (file: Pick<StoredFile, 'id' | 'extension'>): string => `/files/${file.id}.${file.extension}`;

/**
 * `GET /files/{id}`: generated files, without authentication (the unguessable id is the capability,
 * as a signed URL would be), cacheable until they expire.
 */
export async function fileRoutes(scope: FastifyInstance, { files }: { files: FileStore }): Promise<void> {
  const response = { 200: FileBytes, '4xx': ErrorReply };
  scope.get('/files/:name', { schema: { hide: true, params: FileParams, response } }, async (request, reply) => {
    const { name } = request.params as { name: string };
    const now = Date.now();
    const found = await files.get(name.replace(/\.[a-z0-9]{1,5}$/i, ''), now);
    if (!found) throw unknownApi(`File ${name} does not exist or has expired`);
    const { file, bytes } = found;
    const maxAge = Math.max(0, Math.floor((file.expiresAt - now) / 1000));
    const type =
      file.contentType.startsWith('text/') && !/charset=/i.test(file.contentType)
        ? `${file.contentType}; charset=UTF-8`
        : file.contentType;
    return (
      reply
        .header('content-type', type)
        // private: the URL is the only credential, so no shared cache (a proxy, a CDN) may keep the bytes.
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('expires', new Date(file.expiresAt).toUTCString())
        .header('last-modified', new Date(file.createdAt).toUTCString())
        .header('x-content-type-options', 'nosniff')
        .send(bytes)
    );
  });
}
