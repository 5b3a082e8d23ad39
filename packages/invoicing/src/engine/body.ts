// Request bodies: parsed, checked against the registry's schemas, then turned into values that
// Postgres parses exactly (numbers and money as decimal text, arrays as array literals, JSON as
// text), so no column's meaning depends on how JavaScript represents it.
import { HttpError } from '../../../edge/mod.ts';
import type { Resource } from '../registry/types.ts';
import { columnKind, type ColumnKind } from '../query/column-kind.ts';
import { EXPECTATION, bodySchema, SERVER_COLUMNS } from './schemas.ts';

export type Row = Record<string, string | boolean | null>;

export const MAX_BULK = 500;

/** The request's JSON, or a 400 saying what is wrong with it. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') throw new HttpError(400, 'Request body is empty: send a JSON object');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

/** Messages read as sentences; in a bulk body they follow the "item N: " label. */
function fail(label: string, message: string): HttpError {
  return new HttpError(400, label ? `${label}${message}` : message[0].toUpperCase() + message.slice(1));
}

function pgArrayLiteral(values: unknown[]): string {
  const item = (v: unknown) =>
    v === null ? 'NULL' : `"${(typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return `{${values.map(item).join(',')}}`;
}

function toDbValue(kind: ColumnKind, value: unknown): string | boolean | null {
  if (value === null || value === undefined) return kind === 'json' && value === null ? 'null' : null;
  if (kind === 'json') return JSON.stringify(value);
  if (kind === 'array') return pgArrayLiteral(value as unknown[]);
  if (typeof value === 'boolean') return value;
  return String(value);
}

function fieldMessage(resource: Resource, issue: { code: string; path: PropertyKey[]; keys?: string[]; message: string }, input: Record<string, unknown>): string {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys?.[0] ?? '?';
    const known = resource.columns.some((c) => c.name === key);
    return known
      ? `field '${key}' is computed or managed by the service and cannot be set`
      : `unknown field '${key}' for ${resource.path}`;
  }
  const field = String(issue.path[0] ?? '?');
  const col = resource.columns.find((c) => c.name === field);
  if (input[field] === undefined) return `field '${field}' is required`;
  if (!col) return `invalid field '${field}'`;
  const expected = col.enumValues?.length ? `one of ${col.enumValues.join(', ')}` : EXPECTATION[columnKind(col)];
  const detail = issue.code === 'too_big' || issue.code === 'too_small' ? ` (${issue.message.toLowerCase()})` : '';
  return `invalid value for field '${field}': expected ${expected}${col.nullable ? ' or null' : ''}${detail}`;
}

/**
 * Validates one row of a POST (create) or PATCH body and converts it for SQL.
 * `label` prefixes messages for bulk bodies ("item 3: "); `preset` holds fields the service
 * sets itself (a line's invoice_id), which the client must not send.
 */
export function validateRow(
  resource: Resource,
  input: unknown,
  mode: 'create' | 'patch',
  label = '',
  preset: Record<string, string> = {},
): Row {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw fail(label, `expected a JSON object of ${resource.path} fields`);
  }
  const body = input as Record<string, unknown>;
  if ('company_id' in body) {
    throw fail(label, `field 'company_id' is set by the service from the active company and must not be sent`);
  }
  if (mode === 'patch') {
    for (const locked of ['id', 'created_at']) {
      if (locked in body) throw fail(label, `field '${locked}' cannot be changed`);
    }
  }
  for (const key of Object.keys(body)) {
    if (key in preset) throw fail(label, `field '${key}' is set by the service and must not be sent`);
    if (SERVER_COLUMNS.has(key) || resource.columns.find((c) => c.name === key)?.generated) {
      throw fail(label, `field '${key}' is managed by the service and cannot be set`);
    }
  }
  const parsed = bodySchema(resource, mode).safeParse({ ...body, ...preset });
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const first = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
    throw fail(label, fieldMessage(resource, first as never, body));
  }
  const row: Row = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (value === undefined) continue;
    const col = resource.columns.find((c) => c.name === key)!;
    row[key] = toDbValue(columnKind(col), value);
  }
  return row;
}

/** A POST body: one object, or an array of 1…500 objects (all or nothing). */
export function validateCreateBody(resource: Resource, body: unknown): { rows: Row[]; bulk: boolean } {
  if (!Array.isArray(body)) return { rows: [validateRow(resource, body, 'create')], bulk: false };
  if (body.length === 0) throw new HttpError(400, 'Bulk create needs at least one row');
  if (body.length > MAX_BULK) throw new HttpError(400, `Bulk create takes at most ${MAX_BULK} rows (got ${body.length})`);
  return { rows: body.map((item, i) => validateRow(resource, item, 'create', `item ${i}: `)), bulk: true };
}
