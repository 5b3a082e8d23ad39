// The local GoTrue: the /auth/v1 routes supabase-js calls (signup, password and refresh-token
// grants, user, logout, JWKS), with GoTrue's status codes, error codes and JSON shapes.
// The gateway forwards full paths (/auth/v1/...) after checking the apikey.
import { Hono } from 'hono';
import type { Sql } from 'postgres';
import { bearerToken } from '../../../edge/mod.ts';
import type { LocalKeys } from '../keys.ts';
import { createAccessTokens, type UserClaims } from './access-tokens.ts';
import { checkNewPassword, MIN_PASSWORD_LENGTH, normalizeEmail } from './credentials.ts';
import {
  AuthHttpError,
  errorResponse,
  invalidCredentials,
  noAuthorization,
  notFound,
  phoneProviderDisabled,
  refreshTokenNotFound,
  sessionNotFound,
  userNotFound,
  validationFailed,
} from './errors.ts';
import { clientIp, jsonResponse, noContent, optionalString, readJsonObject } from './http.ts';
import { createLoginThrottle } from './login-throttle.ts';
import { endSessions, rotateRefreshToken, sessionExists, startSession, type LogoutScope, type SessionGrant } from './sessions.ts';
import {
  assertCanSignIn,
  createEmailUser,
  loadUser,
  recordSignIn,
  userJson,
  verifyPassword,
  type UserWithIdentities,
} from './users.ts';

export interface AuthAppOptions {
  /** Superuser pool on the stack's database. */
  sql: Sql;
  keys: LocalKeys;
  /** External URL of this server, e.g. http://127.0.0.1:54321/auth/v1: the tokens' `iss`. */
  issuer: string;
  /** Access-token lifetime (GoTrue's jwt_expiry). Default 3600. */
  jwtExpirySeconds?: number;
  /** How long a rotated refresh token may still be presented (GoTrue's default is 10). */
  refreshTokenReuseIntervalSeconds?: number;
  /** Failed password grants per (email, ip) within the window before 429. Default 5. */
  maxFailedLogins?: number;
  /** Failed password grants per ip, all emails together, within the window. Default 20. */
  maxFailedLoginsPerIp?: number;
  /** Default 300 (5 minutes). */
  failedLoginWindowSeconds?: number;
  /** Where unexpected errors are reported. Default console.error. */
  log?: (line: string) => void;
}

const LOGOUT_SCOPES: readonly LogoutScope[] = ['global', 'local', 'others'];

export function createAuthApp(opts: AuthAppOptions): { fetch(request: Request): Promise<Response> } {
  const { sql, keys } = opts;
  const reuseIntervalSeconds = opts.refreshTokenReuseIntervalSeconds ?? 10;
  const log = opts.log ?? ((line: string) => console.error(line));
  const accessTokens = createAccessTokens({
    keys,
    issuer: opts.issuer,
    expirySeconds: opts.jwtExpirySeconds ?? 3600,
  });
  const throttle = createLoginThrottle(sql, {
    maxFailuresPerAccount: opts.maxFailedLogins ?? 5,
    maxFailuresPerIp: opts.maxFailedLoginsPerIp ?? 20,
    windowSeconds: opts.failedLoginWindowSeconds ?? 300,
  });

  /** GoTrue's Session body: what supabase-js stores after signUp, sign-in and refresh. */
  async function sessionResponse(grant: SessionGrant): Promise<Response> {
    const user = await loadUser(sql, grant.userId);
    // The user can vanish between commit and here only if deleted concurrently.
    if (!user) throw refreshTokenNotFound();
    const access = await accessTokens.issue(user.row, { id: grant.sessionId, signedInAt: grant.signedInAt });
    return jsonResponse({
      access_token: access.token,
      token_type: 'bearer',
      expires_in: access.expiresIn,
      expires_at: access.expiresAt,
      refresh_token: grant.refreshToken,
      user: userJson(user),
    });
  }

  /** The user behind a Bearer access token whose session is still alive (GoTrue's middleware). */
  async function authenticate(request: Request): Promise<{ claims: UserClaims; user: UserWithIdentities }> {
    const token = bearerToken(request.headers.get('authorization'));
    if (!token) throw noAuthorization();
    const claims = await accessTokens.verify(token);
    const user = await loadUser(sql, claims.sub);
    if (!user) throw userNotFound();
    // Tokens without session_id (legacy, hand-minted) are not tied to a session, as in GoTrue.
    if (claims.session_id && !(await sessionExists(sql, claims.session_id, claims.sub))) throw sessionNotFound();
    return { claims, user };
  }

  const clientOf = (request: Request) => ({
    ip: clientIp(request),
    userAgent: request.headers.get('user-agent'),
  });

  const app = new Hono().basePath('/auth/v1');

  app.onError((err, c) => {
    if (err instanceof AuthHttpError) return errorResponse(err);
    log(`[auth] ${c.req.method} ${c.req.path}: ${err?.stack ?? err}`);
    return errorResponse(new AuthHttpError(500, 'unexpected_failure', 'Internal server error'));
  });
  app.notFound(() => errorResponse(notFound()));

  app.get('/health', () =>
    jsonResponse({ version: 'ledgerbase-local', name: 'GoTrue', description: 'GoTrue-compatible local auth server' }),
  );

  app.get('/settings', () =>
    jsonResponse({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
      password_min_length: MIN_PASSWORD_LENGTH,
    }),
  );

  app.get('/.well-known/jwks.json', () => {
    const response = jsonResponse(keys.jwks);
    response.headers.set('cache-control', 'public, max-age=600');
    return response;
  });

  app.post('/signup', async (c) => {
    const body = await readJsonObject(c.req.raw);
    const rawEmail = optionalString(body, 'email');
    if (!rawEmail && optionalString(body, 'phone')) throw phoneProviderDisabled();
    const password = checkNewPassword(optionalString(body, 'password'));
    const email = normalizeEmail(rawEmail);
    const data = body.data ?? {};
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw validationFailed('data must be a JSON object');
    }
    const grant = await sql.begin(async (tx) => {
      const userId = await createEmailUser(tx, { email, password, data: data as Record<string, unknown> });
      return startSession(tx, userId, clientOf(c.req.raw));
    });
    return sessionResponse(grant as SessionGrant);
  });

  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type');
    const body = await readJsonObject(c.req.raw);
    if (grantType === 'password') return passwordGrant(c.req.raw, body);
    if (grantType === 'refresh_token') {
      const refreshToken = optionalString(body, 'refresh_token');
      if (!refreshToken) throw validationFailed('refresh_token is required');
      return sessionResponse(await rotateRefreshToken(sql, refreshToken, reuseIntervalSeconds));
    }
    throw validationFailed(grantType ? `Unsupported grant_type: ${grantType}` : 'grant_type is required');
  });

  async function passwordGrant(request: Request, body: Record<string, unknown>): Promise<Response> {
    const rawEmail = optionalString(body, 'email');
    const password = optionalString(body, 'password');
    if (!rawEmail) {
      if (optionalString(body, 'phone')) throw phoneProviderDisabled();
      throw validationFailed('An email address is required');
    }
    if (!password) throw validationFailed('A password is required');
    // Looked up the way it was stored; no format check, as in GoTrue: an odd address just fails.
    const email = rawEmail.trim().toLowerCase();
    const client = clientOf(request);
    const grant = await throttle.guard(client.ip, email, async (tx) => {
      const userId = await verifyPassword(tx, email, password);
      if (!userId) return null;
      const user = await loadUser(tx, userId);
      if (!user) return null;
      assertCanSignIn(user.row);
      await recordSignIn(tx, userId);
      return startSession(tx, userId, client);
    });
    if (!grant) throw invalidCredentials();
    return sessionResponse(grant);
  }

  app.get('/user', async (c) => {
    const { user } = await authenticate(c.req.raw);
    return jsonResponse(userJson(user));
  });

  app.post('/logout', async (c) => {
    const scope = (c.req.query('scope') ?? 'global') as LogoutScope;
    if (!LOGOUT_SCOPES.includes(scope)) throw validationFailed(`Unsupported logout scope "${scope}"`);
    const { claims } = await authenticate(c.req.raw);
    await endSessions(sql, claims.sub, claims.session_id, scope);
    return noContent();
  });

  return { fetch: async (request) => app.fetch(request) };
}
