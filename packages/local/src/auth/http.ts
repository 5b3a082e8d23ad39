// Request/response plumbing shared by the auth routes.
import { corsHeaders } from '../../../edge/mod.ts';
import { API_VERSION, API_VERSION_HEADER, validationFailed } from './errors.ts';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', [API_VERSION_HEADER]: API_VERSION, ...corsHeaders },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { [API_VERSION_HEADER]: API_VERSION, ...corsHeaders } });
}

/**
 * The request body as a JSON object. Anything else is the caller's mistake (400), never a 500.
 * Strings holding NUL are refused here too: Postgres cannot store U+0000 in text or jsonb.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw validationFailed('Could not parse request body as JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validationFailed('Request body must be a JSON object');
  }
  if (containsNul(value)) throw validationFailed('Request body must not contain NUL characters');
  return value as Record<string, unknown>;
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => key.includes('\u0000') || containsNul(v));
  }
  return false;
}

/** A string field of the body; absent (or null) gives undefined, any other type is a 400. */
export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw validationFailed(`${field} must be a string`);
  return value;
}

/** The caller's address for throttling: the gateway sets x-real-ip from the socket. */
export function clientIp(request: Request): string {
  return request.headers.get('x-real-ip')?.trim() || 'unknown';
}
