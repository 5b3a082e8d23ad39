// GoTrue's error responses. auth-js reads `code` only when the response carries the API-version
// header and falls back to `error_code`; it reads the message from `msg ?? message`. Sending both
// spellings keeps every auth-js version (and curl users of either shape) happy.
import { corsHeaders } from '../../../edge/mod.ts';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
export const API_VERSION = '2024-01-01';

/** An error the auth server answers with on purpose (anything else is a 500 and a bug). */
export class AuthHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra body fields, e.g. `weak_password: {reasons}`. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorResponse(err: AuthHttpError): Response {
  const body = { code: err.code, error_code: err.code, message: err.message, msg: err.message, ...err.extra };
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: {
      'content-type': 'application/json',
      [API_VERSION_HEADER]: API_VERSION,
      ...corsHeaders,
      ...err.headers,
    },
  });
}

// The errors GoTrue gives for the situations this server knows, by name.
export const validationFailed = (message: string) => new AuthHttpError(400, 'validation_failed', message);

export const invalidCredentials = () => new AuthHttpError(400, 'invalid_credentials', 'Invalid login credentials');

export const weakPassword = (minLength: number) =>
  new AuthHttpError(422, 'weak_password', `Password should be at least ${minLength} characters.`, {
    weak_password: { reasons: ['length'] },
  });

export const userAlreadyExists = () => new AuthHttpError(422, 'user_already_exists', 'User already registered');

export const phoneProviderDisabled = () =>
  new AuthHttpError(400, 'phone_provider_disabled', 'Phone logins are disabled');

export const refreshTokenNotFound = () =>
  new AuthHttpError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

export const refreshTokenAlreadyUsed = () =>
  new AuthHttpError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');

export const noAuthorization = () =>
  new AuthHttpError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');

export const badJwt = (detail: string) => new AuthHttpError(403, 'bad_jwt', `invalid JWT: ${detail}`);

export const sessionNotFound = () =>
  new AuthHttpError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');

export const userNotFound = () =>
  new AuthHttpError(403, 'user_not_found', 'User from sub claim in JWT does not exist');

export const tooManyLoginAttempts = (retryAfterSeconds: number) =>
  new AuthHttpError(
    429,
    'over_request_rate_limit',
    'Too many failed login attempts. Please try again later.',
    {},
    { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );

export const notFound = () => new AuthHttpError(404, 'not_found', 'Not found');
