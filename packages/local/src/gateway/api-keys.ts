// The apikey rules of Supabase's API gateway (reference §5): which keys are accepted, and which
// role JWT an opaque `sb_` key stands for when a request carries no user token.
import type { LocalKeys } from '../keys.ts';

export type ApiKeyCheck =
  | { ok: true; role: 'anon' | 'service_role'; roleJwt: string }
  | { ok: false; response: Response };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function checkApiKey(request: Request, keys: LocalKeys): ApiKeyCheck {
  const apikey = request.headers.get('apikey') ?? new URL(request.url).searchParams.get('apikey');
  if (!apikey) {
    return {
      ok: false,
      response: json(401, {
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      }),
    };
  }
  if (apikey === keys.anonKey || apikey === keys.publishableKey) {
    return { ok: true, role: 'anon', roleJwt: keys.anonKey };
  }
  if (apikey === keys.serviceRoleKey || apikey === keys.secretKey) {
    return { ok: true, role: 'service_role', roleJwt: keys.serviceRoleKey };
  }
  return { ok: false, response: json(401, { message: 'Invalid API key' }) };
}

/**
 * The token a function's JWT check looks at: the caller's Authorization bearer unless that is
 * itself an `sb_` key, otherwise the role JWT the apikey maps to.
 */
export function effectiveToken(request: Request, roleJwt: string): string {
  const auth = request.headers.get('authorization');
  const bearer = auth && /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  return bearer && !bearer.startsWith('sb_') ? bearer : roleJwt;
}
