// The one error envelope of the invoicing API, {error: {message, status}}, for every failure:
// deliberate HttpErrors, database errors (mapped by SQLSTATE, never shown raw) and bugs (a 500
// with a request id; the stack goes to the log only).
import { HttpError, corsHeaders, newRequestId } from '../../../edge/mod.ts';
import { dbErrorToHttp, isDbError } from './db-errors.ts';

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { message, status } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...corsHeaders, ...headers },
  });
}

/** Any thrown value → the envelope. `log` receives what the client must not see. */
export function toErrorResponse(err: unknown, log: (line: string) => void = console.error): Response {
  if (err instanceof HttpError) return errorResponse(err.status, err.message, err.headers);
  if (isDbError(err)) {
    const mapped = dbErrorToHttp(err);
    if (mapped) return errorResponse(mapped.status, mapped.message, mapped.headers);
  }
  const requestId = newRequestId();
  log(`[invoicing] ${requestId}: ${(err as Error)?.stack ?? String(err)}`);
  return errorResponse(500, `Internal server error (request ${requestId})`, { 'x-request-id': requestId });
}
