// The local API gateway: what Kong and the edge runtime do for a hosted project.
//   /auth/v1/*              → the auth server
//   /functions/v1/<slug>/*  → the function's app, after the apikey and (per config.toml) JWT checks
//   /v1/*, /api/v1/*        → the invoicing function, as its short local address
import type { EdgeContext } from '../../../edge/mod.ts';
import { InvalidTokenError, preflightResponse, corsHeaders, newRequestId } from '../../../edge/mod.ts';
import type { LocalKeys } from '../keys.ts';
import { checkApiKey, effectiveToken } from './api-keys.ts';
import type { FetchApp } from './function-registry.ts';

export interface GatewayFunction {
  app: FetchApp;
  verifyJwt: boolean;
}

export interface GatewayOptions {
  keys: LocalKeys;
  edge: EdgeContext;
  auth: FetchApp;
  functions: Map<string, GatewayFunction>;
  log?: (line: string) => void;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...corsHeaders, ...headers },
  });

export const payloadTooLarge = () => json(413, { message: 'Payload too large: the limit is 1 MB' });

function jwtFailure(code: string): Response {
  return json(401, { code, message: 'Invalid JWT' }, { 'sb-error-code': code });
}

/**
 * The request as the function sees it, at another URL. Built from its parts on purpose: in
 * Node 20 `new Request(url, request)` costs milliseconds and ties a listener to the original's
 * abort signal per call.
 */
async function rewriteUrl(request: Request, url: URL): Promise<Request> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : undefined,
  });
}

export function createGateway(opts: GatewayOptions) {
  const log = opts.log ?? ((line: string) => console.error(line));

  /** Runs a function's app; an exception becomes a logged 500 that never shows the stack. */
  async function invoke(fn: GatewayFunction, request: Request): Promise<Response> {
    try {
      return await fn.app.fetch(request);
    } catch (err) {
      const requestId = newRequestId();
      log(`[gateway] ${requestId} ${request.method} ${new URL(request.url).pathname}: ${(err as Error)?.stack ?? err}`);
      return json(500, { message: 'Internal Server Error', request_id: requestId }, { 'x-request-id': requestId });
    }
  }

  async function callFunction(request: Request, slug: string, rest: string): Promise<Response> {
    const fn = opts.functions.get(slug);
    if (!fn) return json(404, { code: 'NOT_FOUND', message: 'Requested function was not found' });
    if (request.method === 'OPTIONS') return preflightResponse();
    const key = checkApiKey(request, opts.keys);
    if (!key.ok) return key.response;
    if (fn.verifyJwt) {
      try {
        await opts.edge.verifyToken(effectiveToken(request, key.roleJwt));
      } catch (err) {
        const format = err instanceof InvalidTokenError && err.reason === 'format';
        return jwtFailure(format ? 'UNAUTHORIZED_INVALID_JWT_FORMAT' : 'UNAUTHORIZED_INVALID_JWT');
      }
    }
    const url = new URL(request.url);
    url.pathname = `/${slug}${rest}`;
    return invoke(fn, await rewriteUrl(request, url));
  }

  return async function handle(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const fnPath = /^\/functions\/v1\/([^/?]+)(\/.*)?$/.exec(pathname);
    if (fnPath) return callFunction(request, fnPath[1], fnPath[2] ?? '');
    if (pathname.startsWith('/auth/v1/') || pathname === '/auth/v1') {
      if (request.method === 'OPTIONS') return preflightResponse();
      if (!pathname.startsWith('/auth/v1/.well-known/')) {
        const key = checkApiKey(request, opts.keys);
        if (!key.ok) return key.response;
      }
      return opts.auth.fetch(request);
    }
    if (/^\/(api\/)?v1(\/|$)/.test(pathname)) {
      const invoicing = opts.functions.get('invoicing');
      if (invoicing) {
        if (request.method === 'OPTIONS') return preflightResponse();
        // The short address keeps health, docs and openapi.json public: an apikey is checked
        // only when one is sent; the invoicing app validates the bearer token itself.
        if (request.headers.get('apikey')) {
          const key = checkApiKey(request, opts.keys);
          if (!key.ok) return key.response;
        }
        return invoke(invoicing, request);
      }
    }
    return json(404, { message: 'no route matched with those values' });
  };
}
