import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The route's URL with each parameter and wildcard filled in (`x`). */
  path: string;
}

/**
 * Every method and URL the app serves, read from its route tree (`printRoutes`): a route added
 * later is in the list without anyone writing it down. HEAD, which Fastify adds to each GET, is left out.
 */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const path = (parents[depth - 1] ?? '') + match[2]!;
    parents.push(path);
    for (const method of (match[3] ?? '').split(', ')) {
      if (method === '' || method === 'HEAD') continue;
      routes.push({ method, path: path.replace(/:[A-Za-z_]+/g, 'x').replace(/\*/g, 'x') });
    }
  }
  return routes;
}
