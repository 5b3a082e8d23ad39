// Every authenticated request runs in one transaction as the caller (role authenticated, their
// claims, app.company_id = X-Company-Id), so RLS decides what it sees. The active-company check
// is sent first and pipelined with the handler's queries: one round trip, not two.
import { HttpError, withClaims, type EdgeContext, type TransactionSql } from '../../../edge/mod.ts';
import type { Caller } from './auth.ts';

export interface Session {
  tx: TransactionSql;
  caller: Caller;
}

function noCompany(caller: Caller): HttpError {
  return new HttpError(
    403,
    caller.companyId
      ? `You are not a member of company ${caller.companyId}`
      : 'You are not a member of any company: create one with POST /v1/companies',
  );
}

/** Runs `fn` as the caller inside their active company; 403 when there is none. */
export function inCompany<T>(ctx: EdgeContext, caller: Caller, fn: (s: Session & { companyId: Promise<string> }) => Promise<T>): Promise<T> {
  return withClaims(
    ctx.sql,
    caller.claims,
    async (tx) => {
      const check = tx`select app.active_company_id() as id`.then((rows) => {
        const id = rows[0]?.id as string | null;
        if (!id) throw noCompany(caller);
        return id;
      });
      const result = fn({ tx, caller, companyId: check });
      // The check's answer arrives first; when it fails, the pipelined queries fail with it.
      const [company, value] = await Promise.allSettled([check, result]);
      if (company.status === 'rejected') throw company.reason;
      if (value.status === 'rejected') throw value.reason;
      return value.value;
    },
    { 'app.company_id': caller.companyId },
  );
}

/** Runs `fn` as the caller without requiring an active company (/me, /companies). */
export function asCaller<T>(ctx: EdgeContext, caller: Caller, fn: (s: Session) => Promise<T>): Promise<T> {
  return withClaims(ctx.sql, caller.claims, (tx) => fn({ tx, caller }), { 'app.company_id': caller.companyId });
}
