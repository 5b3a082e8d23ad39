// Request validation with zod: one message per failure, naming the field, as a 400.
import { z } from 'zod';
import { badRequest } from '../../edge/mod.ts';
import { MAX_AMOUNT_CENTS, parseCents } from './money.ts';

export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join('.');
  if (!field) throw badRequest(issue.message);
  const missing = valueAt(input, issue.path) === undefined;
  throw badRequest(missing ? `${field} is required` : `${field}: ${issue.message}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The JSON body as an object; malformed or non-object JSON is a 400. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (!text.trim()) throw badRequest('Request body is required (JSON object)');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  return body as Record<string, unknown>;
}

export const uuid = z.uuid({ message: 'must be a UUID' });

/** Positive amount with at most 2 decimals, as a number (or numeric string); becomes cents. */
export const amountCents = z
  .union([z.number(), z.string()], { message: 'must be a number' })
  .transform((value, ctx) => {
    const cents = parseCents(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive number with at most 2 decimals' });
      return z.NEVER;
    }
    if (cents <= 0 || cents > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: 'custom', message: 'must be greater than 0 and at most 999999999999.99' });
      return z.NEVER;
    }
    return cents;
  });

export const categories = ['food', 'transport', 'accommodation', 'entertainment', 'shopping', 'utilities', 'health', 'other'] as const;
export const category = z.enum(categories, { message: `must be one of ${categories.join(', ')} or null` });

export const nonEmptyText = (max: number) =>
  z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** ISO date or date-time; `created_at` of expenses is user-selectable. */
export const timestamp = z
  .string({ message: 'must be an ISO date string' })
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO date string');

/** Query parameter: `name` must be a UUID. */
export function queryUuid(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value === '') throw badRequest(`${name} is required`);
  return parse(z.object({ [name]: uuid }), { [name]: value })[name] as string;
}

export function pathUuid(value: string | undefined, name: string): string {
  if (!value) throw badRequest(`${name} is required in the path`);
  return parse(z.object({ [name]: uuid }), { [name]: value })[name] as string;
}
