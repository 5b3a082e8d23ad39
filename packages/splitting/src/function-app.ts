// Builds one deployed function's app: a Hono app whose routes are written relative to the
// function (`/`, `/join`, `/:id`), so it works under any prefix — `/api-groups/join` from the
// gateway or the edge runtime, `/functions/v1/api-groups/join` if mounted elsewhere.
// Every response carries CORS headers; unknown paths are 404 and unlisted methods 405, all in
// the {"error": …} envelope.
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { corsHeaders, preflightResponse } from '../../edge/mod.ts';
import { errorResponse, toErrorResponse } from './errors.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RouteHandler = (c: Context) => Promise<Response>;
export type Routes = Record<string, Partial<Record<Method, RouteHandler>>>;

export interface FunctionApp {
  fetch: (request: Request) => Promise<Response>;
}

export function createFunctionApp(slug: string, routes: Routes, opts: { before?: MiddlewareHandler } = {}): FunctionApp {
  const app = new Hono();
  app.onError((err) => toErrorResponse(err));
  app.notFound(() => errorResponse(404, 'Not found'));
  app.options('*', () => preflightResponse());
  if (opts.before) app.use('*', opts.before);
  for (const [path, handlers] of Object.entries(routes)) {
    const allowed = Object.keys(handlers).join(', ');
    for (const [method, handler] of Object.entries(handlers)) app.on(method, path, handler as RouteHandler);
    app.all(path, (c) => errorResponse(405, `Method ${c.req.method} is not allowed here; use ${allowed}`, { allow: allowed }));
  }

  return {
    fetch: async (request) => {
      const url = new URL(request.url);
      url.pathname = pathAfterSlug(url.pathname, slug);
      const response = await app.fetch(new Request(url, request));
      for (const [name, value] of Object.entries(corsHeaders)) {
        if (!response.headers.has(name)) response.headers.set(name, value);
      }
      return response;
    },
  };
}

/** `/x/api-groups/join/` → `/join`; a path without the slug is taken as already relative. */
export function pathAfterSlug(pathname: string, slug: string): string {
  const segments = pathname.split('/').filter(Boolean);
  const at = segments.indexOf(slug);
  const rest = at >= 0 ? segments.slice(at + 1) : segments;
  return `/${rest.join('/')}`;
}
