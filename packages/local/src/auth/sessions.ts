// auth.sessions and auth.refresh_tokens: starting sessions, rotating refresh tokens with reuse
// detection, and ending sessions. Refresh tokens are opaque random strings; each refresh revokes
// the presented one and issues its child, so a session's tokens form a chain with one live end.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { ISql, Sql } from 'postgres';
import { refreshTokenAlreadyUsed, refreshTokenNotFound } from './errors.ts';

type Db = ISql<{}>;

export interface SessionGrant {
  sessionId: string;
  userId: string;
  refreshToken: string;
  /** When the session began: the `amr` timestamp of every access token it yields. */
  signedInAt: Date;
}

export type LogoutScope = 'global' | 'local' | 'others';

function newRefreshToken(): string {
  return randomBytes(24).toString('base64url');
}

async function insertRefreshToken(db: Db, session: { id: string; userId: string }, parent: string | null) {
  const token = newRefreshToken();
  await db`
    insert into auth.refresh_tokens (token, user_id, parent, session_id)
    values (${token}, ${session.userId}, ${parent}, ${session.id})`;
  return token;
}

export async function startSession(
  db: Db,
  userId: string,
  client: { ip: string; userAgent: string | null },
): Promise<SessionGrant> {
  // `ip` is an inet column; the throttle's 'unknown' placeholder is not an address.
  const ip = isIP(client.ip) ? client.ip : null;
  const [session] = await db<{ id: string; created_at: Date }[]>`
    insert into auth.sessions (user_id, aal, ip, user_agent, refreshed_at)
    values (${userId}, 'aal1', ${ip}, ${client.userAgent}, now() at time zone 'utc')
    returning id, created_at`;
  const refreshToken = await insertRefreshToken(db, { id: session.id, userId }, null);
  return { sessionId: session.id, userId, refreshToken, signedInAt: session.created_at };
}

/**
 * Exchanges a refresh token for the session's next one (GoTrue's rotation rules):
 * - a live token is revoked and its child issued;
 * - a revoked token that is the parent of the live one gets the live one back (the client lost
 *   the previous response), as does any revoked token within `reuseIntervalSeconds` of its
 *   revocation (concurrent tabs refreshing at once);
 * - any other revoked token means the chain leaked: the whole session is ended, so its access
 *   tokens stop working too, and the caller gets refresh_token_already_used.
 * Row locks on the token and its session serialise concurrent refreshes of one session.
 */
export async function rotateRefreshToken(
  sql: Sql,
  presented: string,
  reuseIntervalSeconds: number,
): Promise<SessionGrant> {
  type Outcome = { kind: 'granted'; grant: SessionGrant } | { kind: 'not_found' } | { kind: 'reused' };
  const outcome = await sql.begin(async (tx): Promise<Outcome> => {
    const [token] = await tx<
      { id: string; token: string; revoked: boolean; session_id: string | null; within_reuse_interval: boolean }[]
    >`
      select id, token, revoked, session_id,
             updated_at > now() - make_interval(secs => ${reuseIntervalSeconds}) as within_reuse_interval
      from auth.refresh_tokens where token = ${presented}
      for update`;
    if (!token?.session_id) return { kind: 'not_found' };
    const [session] = await tx<{ id: string; user_id: string; created_at: Date }[]>`
      select id, user_id, created_at from auth.sessions where id = ${token.session_id} for update`;
    if (!session) return { kind: 'not_found' };
    const ref = { id: session.id, userId: session.user_id };
    const grant = (refreshToken: string): Outcome => ({
      kind: 'granted',
      grant: { sessionId: session.id, userId: session.user_id, refreshToken, signedInAt: session.created_at },
    });

    if (!token.revoked) {
      await tx`update auth.refresh_tokens set revoked = true, updated_at = now() where id = ${token.id}`;
      await tx`update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now()
               where id = ${session.id}`;
      return grant(await insertRefreshToken(tx, ref, token.token));
    }

    const [live] = await tx<{ token: string; parent: string | null }[]>`
      select token, parent from auth.refresh_tokens
      where session_id = ${session.id} and not revoked
      order by id desc limit 1`;
    if (live && (live.parent === token.token || token.within_reuse_interval)) return grant(live.token);
    if (!live && token.within_reuse_interval) return grant(await insertRefreshToken(tx, ref, token.token));

    // Deleting the session cascades to its refresh tokens; access tokens naming it then fail
    // the session check on /user and /logout.
    await tx`delete from auth.sessions where id = ${session.id}`;
    return { kind: 'reused' };
  });
  // The revocation above is committed before the error is reported.
  if (outcome.kind === 'not_found') throw refreshTokenNotFound();
  if (outcome.kind === 'reused') throw refreshTokenAlreadyUsed();
  return outcome.grant;
}

export async function sessionExists(db: Db, sessionId: string, userId: string): Promise<boolean> {
  const [row] = await db`select 1 from auth.sessions where id = ${sessionId} and user_id = ${userId}`;
  return Boolean(row);
}

/** Ends sessions of a user; their refresh tokens go with them (on delete cascade). */
export async function endSessions(
  db: Db,
  userId: string,
  currentSessionId: string | undefined,
  scope: LogoutScope,
): Promise<void> {
  if (scope === 'global') {
    await db`delete from auth.sessions where user_id = ${userId}`;
  } else if (scope === 'local') {
    if (currentSessionId) await db`delete from auth.sessions where id = ${currentSessionId} and user_id = ${userId}`;
  } else if (currentSessionId) {
    await db`delete from auth.sessions where user_id = ${userId} and id <> ${currentSessionId}`;
  } else {
    await db`delete from auth.sessions where user_id = ${userId}`;
  }
}
