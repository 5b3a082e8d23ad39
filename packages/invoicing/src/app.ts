// The invoicing function's app: /v1 under any prefix, bearer auth on everything but the three
// public endpoints, one error envelope, and the routes of the engine and its companions.
import { Hono } from 'hono';
import { corsHeaders, HttpError, preflightResponse, type EdgeContext } from '../../edge/mod.ts';
import { companyRoutes } from './companies.ts';
import { docsPage } from './docs/docs-page.ts';
import { invoiceRoutes } from './engine/invoice-routes.ts';
import { resourceRoutes } from './engine/resource-routes.ts';
import type { AppDeps, AppEnv } from './http/app-env.ts';
import { authenticate } from './http/auth.ts';
import { errorResponse, toErrorResponse } from './http/errors.ts';
import { apiPath } from './http/path.ts';
import { jsonResponse } from './http/respond.ts';
import { meRoutes } from './me.ts';
import { reportRoutes } from './reports/mod.ts';
import { openApiDocument } from './docs/openapi.ts';
import { findResource, resources } from './registry/registry.ts';

const PUBLIC_PATHS = new Set(['/v1/health', '/v1/openapi.json', '/v1/docs']);

/**
 * Methods each route pattern answers, for 405s (Hono itself only knows "no match" → 404). The
 * fixed paths are guarded before the generic /v1/:resource/:id routes could claim them.
 */
const FIXED_ROUTES: [string, string[]][] = [
  ['/v1/health', ['GET']],
  ['/v1/openapi.json', ['GET']],
  ['/v1/docs', ['GET']],
  ['/v1/me', ['GET']],
  ['/v1/companies', ['GET', 'POST']],
  ['/v1/companies/:id/members', ['POST']],
  ['/v1/invoices/with-items', ['POST']],
  ['/v1/invoices/:id/items', ['GET']],
  ['/v1/reports/:name', ['GET']],
];
const GENERIC_ROUTES: [string, string[]][] = [
  ['/v1/:resource', ['GET', 'POST']],
  ['/v1/:resource/:id', ['GET', 'PATCH', 'DELETE']],
];

function methodGuards(app: Hono<AppEnv>, routes: [string, string[]][]): void {
  for (const [pattern, methods] of routes) {
    const allow = [...methods, 'OPTIONS'].join(', ');
    app.all(pattern, (c) => {
      throw new HttpError(405, `Method ${c.req.method} is not allowed on ${c.req.path}`, { allow });
    });
  }
}

export function createInvoicingApp(ctx: EdgeContext, deps: Partial<Omit<AppDeps, 'ctx'>> = {}) {
  const full: AppDeps = { ctx, resources: deps.resources ?? resources, findResource: deps.findResource ?? findResource };
  const app = new Hono<AppEnv>({ getPath: (request) => apiPath(new URL(request.url).pathname) });
  let openapi: string | undefined;

  app.onError((err) => toErrorResponse(err));
  app.notFound((c) => errorResponse(404, `No route ${c.req.method} ${c.req.path}`));

  app.use('*', async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflightResponse();
    await next();
  });

  app.use('/v1/*', async (c, next) => {
    if (!PUBLIC_PATHS.has(c.req.path)) c.set('caller', await authenticate(ctx, c.req.raw));
    await next();
  });

  // liveness only: no database round trip, so it answers even when Postgres does not
  app.get('/v1/health', () => jsonResponse({ status: 'ok', service: 'invoicing', version: 'v1', time: new Date().toISOString() }));
  app.get('/v1/openapi.json', (c) => {
    // built on first use (the document does not change while the isolate lives)
    openapi ??= JSON.stringify(openApiDocument(full.resources));
    return new Response(openapi, { headers: { 'content-type': 'application/json; charset=utf-8', ...corsHeaders } });
  });
  app.get('/v1/docs', () =>
    new Response(docsPage(), { headers: { 'content-type': 'text/html; charset=utf-8', ...corsHeaders } }),
  );

  meRoutes(app, full);
  companyRoutes(app, full);
  invoiceRoutes(app, full);
  reportRoutes(app, full);
  methodGuards(app, FIXED_ROUTES);
  resourceRoutes(app, full);
  methodGuards(app, GENERIC_ROUTES);
  return app;
}
