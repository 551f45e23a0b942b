/** The JSON content type as docs/wire.md, "Content types" spells it (Fastify's default writes `utf-8`). */
export const JSON_TYPE = 'application/json; charset=UTF-8';
