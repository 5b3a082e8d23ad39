// The splitting service's one error envelope, {"error": "..."}, and the mapping of every
// failure onto it: deliberate HttpErrors, validation errors, and database errors by SQLSTATE.
// A 500 is always a bug, so it is logged and never shows internals.
import { corsHeaders, HttpError } from '../../edge/mod.ts';

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: message }), {
    status,
    headers: { 'content-type': 'application/json', ...corsHeaders, ...headers },
  });
}

// Our own SQL functions and triggers raise SPxxx for client mistakes (see the migrations).
const CUSTOM_STATES: Record<string, number> = { SP400: 400, SP401: 401, SP403: 403, SP404: 404, SP429: 429 };

// Standard SQLSTATEs a client can provoke with valid-looking input.
const STANDARD_STATES: Record<string, [number, string]> = {
  '22P02': [400, 'Invalid value'],
  '22003': [400, 'Number out of range'],
  '22001': [400, 'Value too long'],
  '22007': [400, 'Invalid date'],
  '22008': [400, 'Invalid date'],
  '23502': [400, 'A required value is missing'],
  '23503': [400, 'A referenced record does not exist'],
  '23505': [400, 'A record with this value already exists'],
  '23514': [400, 'A value is out of the allowed range'],
  '42501': [403, 'You are not allowed to do this'],
};

interface PgLikeError {
  code?: unknown;
  message?: unknown;
  constraint_name?: unknown;
}

export function toErrorResponse(err: unknown): Response {
  if (err instanceof HttpError) return errorResponse(err.status, err.message, err.headers);
  const pg = err as PgLikeError;
  if (pg && typeof pg.code === 'string') {
    const custom = CUSTOM_STATES[pg.code];
    if (custom) return errorResponse(custom, String(pg.message));
    const standard = STANDARD_STATES[pg.code];
    if (standard) {
      const detail = typeof pg.constraint_name === 'string' ? ` (${pg.constraint_name})` : '';
      return errorResponse(standard[0], standard[1] + detail);
    }
  }
  console.error('[splitting] unexpected error', err);
  return errorResponse(500, 'Internal server error');
}
