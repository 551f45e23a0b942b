/** The JSON content type as decisions.md §1 spells it (Fastify's default writes `utf-8`). */
export const JSON_TYPE = 'application/json; charset=UTF-8';
