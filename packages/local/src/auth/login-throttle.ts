// Throttles failed password sign-ins. State lives in auth.login_attempts so every process (and
// every restart) sees the same counts. Two limits:
//   - per (email, ip): guessing one account's password from one place;
//   - per ip, over all emails: one place trying many accounts (credential stuffing).
// There is deliberately no per-email limit over all ips: anyone could then lock a victim out.
// While a limit is reached even the right password gets 429, otherwise the limit would not stop
// guessing; a successful sign-in clears that pair's failures.
import type { ISql, Sql } from 'postgres';
import { tooManyLoginAttempts } from './errors.ts';

type Db = ISql<{}>;

export interface LoginThrottleOptions {
  /** Failures allowed per (email, ip) within the window. */
  maxFailuresPerAccount: number;
  /** Failures allowed per ip, all emails together, within the window. */
  maxFailuresPerIp: number;
  windowSeconds: number;
}

export interface LoginThrottle {
  /**
   * Runs `attempt` in a transaction unless (ip, email) is over a limit (then 429). `attempt`
   * returns null for wrong credentials, which is recorded; anything else counts as success.
   */
  guard<T>(ip: string, email: string, attempt: (tx: Db) => Promise<T | null>): Promise<T | null>;
}

export function createLoginThrottle(sql: Sql, opts: LoginThrottleOptions): LoginThrottle {
  const window = opts.windowSeconds;
  return {
    async guard<T>(ip: string, email: string, attempt: (tx: Db) => Promise<T | null>): Promise<T | null> {
      return sql.begin(async (tx) => {
        // Serialises attempts on one (email, ip) so a burst of parallel guesses cannot all slip
        // under the limit before any failure is recorded.
        await tx`select pg_advisory_xact_lock(hashtextextended(${`login:${email}\u0001${ip}`}, 0))`;
        const [counts] = await tx<
          { account: number; ip_total: number; account_oldest_age: number | null; ip_oldest_age: number | null }[]
        >`
          select count(*) filter (where email = ${email})::int as account,
                 count(*)::int as ip_total,
                 extract(epoch from now() - min(attempted_at) filter (where email = ${email}))::float8 as account_oldest_age,
                 extract(epoch from now() - min(attempted_at))::float8 as ip_oldest_age
          from auth.login_attempts
          where ip = ${ip} and attempted_at > now() - make_interval(secs => ${window})`;
        // Retry-After: when the oldest failure that counts against the limit leaves the window.
        if (counts.account >= opts.maxFailuresPerAccount) {
          throw tooManyLoginAttempts(window - (counts.account_oldest_age ?? 0));
        }
        if (counts.ip_total >= opts.maxFailuresPerIp) {
          throw tooManyLoginAttempts(window - (counts.ip_oldest_age ?? 0));
        }
        const result = await attempt(tx);
        if (result === null) {
          await tx`insert into auth.login_attempts (ip, email) values (${ip}, ${email})`;
          // Keeps the table small: this pair's failures older than the window no longer count.
          await tx`delete from auth.login_attempts
                   where email = ${email} and ip = ${ip} and attempted_at <= now() - make_interval(secs => ${window})`;
        } else {
          await tx`delete from auth.login_attempts where email = ${email} and ip = ${ip}`;
        }
        return result;
      }) as Promise<T | null>;
    },
  };
}
