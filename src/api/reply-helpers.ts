import { type TProperties, Type } from '@sinclair/typebox';

/**
 * A reply object: closed, so that the e2e suite's check fails on a field no schema documents, and
 * its properties in the order they go on the wire (Fastify's serializer writes them in schema order).
 */
export const ReplyObject = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

/** Seconds since the Unix epoch. */
export const UnixSeconds = Type.Integer({ description: 'Unix seconds' });

/** `yyyyMMddHHmmss` (UTC) and 16 lowercase hex characters (docs/wire.md, "Ids"). */
export const PlatformId = Type.String({
  description: 'Platform id: UTC yyyyMMddHHmmss and 16 lowercase hex characters',
});
