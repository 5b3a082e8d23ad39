// Database errors in words. The driver's message can carry table internals and other rows'
// values, so the client gets a sentence built from the structured fields (SQLSTATE, column,
// constraint) instead; unknown codes fall through to a logged 500.
import { HttpError } from '../../../edge/mod.ts';

export interface DbError {
  code: string;
  message: string;
  detail?: string;
  column_name?: string;
  constraint_name?: string;
  table_name?: string;
}

export function isDbError(err: unknown): err is DbError {
  return typeof err === 'object' && err !== null && (err as { name?: string }).name === 'PostgresError' &&
    typeof (err as DbError).code === 'string';
}

/** `Key (company_id, type, invoice_number)=(…)` → ['type', 'invoice_number'] (tenancy column left out). */
function keyColumns(detail: string | undefined): string[] {
  const m = /^Key \(([^)]*)\)/.exec(detail ?? '');
  if (!m) return [];
  return m[1]
    .split(',')
    .map((s) => s.trim().replace(/^lower\((.*)\)$/, '$1').replace(/"/g, ''))
    .filter((s) => s && s !== 'company_id');
}

/** `invoices_type_check` on table invoices → 'type'. */
function constraintColumn(constraint: string | undefined, table: string | undefined): string | undefined {
  if (!constraint) return undefined;
  let name = constraint;
  if (table && name.startsWith(`${table}_`)) name = name.slice(table.length + 1);
  return name.replace(/_(check|key|fkey|excl)$/, '') || undefined;
}

const resourceWord = (table: string | undefined) => (table ? table.replace(/_/g, ' ').replace(/s$/, '') : 'row');

export function dbErrorToHttp(err: DbError): HttpError | undefined {
  const table = err.table_name;
  switch (err.code) {
    case '23505': {
      const cols = keyColumns(err.detail);
      const what = cols.length ? ` with this ${cols.join(' and ')}` : '';
      return new HttpError(400, `A ${resourceWord(table)}${what} already exists`);
    }
    case '23503': {
      const cols = keyColumns(err.detail);
      if (/still referenced/.test(err.detail ?? '')) {
        const by = /from table "([^"]+)"/.exec(err.detail ?? '')?.[1];
        return new HttpError(400, `This ${resourceWord(table)} is still referenced${by ? ` by ${by.replace(/_/g, '-')}` : ''} and cannot be deleted`);
      }
      const col = cols[0] ?? constraintColumn(err.constraint_name, table) ?? 'a reference';
      return new HttpError(400, `Field '${col}' does not refer to an existing row`);
    }
    case '23502':
      return new HttpError(400, `Field '${err.column_name ?? 'unknown'}' is required`);
    case '23514': {
      // raised by our own SQL functions (no constraint): the message is written for clients
      if (!err.constraint_name) return new HttpError(400, err.message);
      const col = constraintColumn(err.constraint_name, table);
      return new HttpError(400, col ? `Invalid value for '${col}' (check ${err.constraint_name} failed)` : 'A check constraint failed');
    }
    case '23P01':
      return new HttpError(400, `This ${resourceWord(table)} conflicts with an existing one`);
    case '22P02':
    case '22007':
    case '22008': {
      const type = /type ([a-z0-9 ]+)/i.exec(err.message)?.[1];
      const col = err.column_name ? `'${err.column_name}'` : 'a field';
      return new HttpError(400, `Invalid value for ${col}${type ? `: expected ${type}` : ''}`);
    }
    case '22003':
      return new HttpError(400, `A numeric value of ${err.column_name ? `'${err.column_name}'` : 'a field'} is out of range`);
    case '22001':
      return new HttpError(400, `A value of ${err.column_name ? `'${err.column_name}'` : 'a field'} is too long`);
    case '22023':
    case 'P0001':
      // raised on purpose by our own SQL (business rules): its message is written for clients
      return new HttpError(400, err.message);
    case '42501':
      // Postgres' own wording names tables and policies; our functions' wording is for clients
      return new HttpError(403, /^(permission denied|new row violates row-level security)/.test(err.message)
        ? 'Forbidden: your role does not allow this in the active company'
        : err.message);
    case 'P0002':
      return new HttpError(404, /^query returned no rows/.test(err.message) ? 'Not found' : err.message);
    case '40001':
    case '40P01':
      return new HttpError(409, 'Conflicting concurrent update; retry the request');
    case '57014':
      return new HttpError(503, 'The query took too long; narrow it with filters');
    default:
      return undefined;
  }
}
