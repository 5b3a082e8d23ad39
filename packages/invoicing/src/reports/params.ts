// Query parameters of the report endpoints as zod schemas. Each report validates its own
// parameters; the first problem becomes a 400 that names the parameter.
import { z } from 'zod';

/** YYYY-MM-DD that is a real calendar date (2025-02-30 is refused, not rolled over). */
export const isoDate = z.string().refine((s) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}, 'must be a date YYYY-MM-DD');

/** from/to, both required and inclusive; to may not precede from. */
export const periodParams = z
  .object({ from: isoDate, to: isoDate })
  .refine((p) => p.from <= p.to, { message: 'must not be before from', path: ['to'] });

const booleanParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const stockParams = z.object({
  search: z.string().max(200).optional(),
  low_stock: booleanParam.optional(),
});

export const outstandingParams = z.object({
  type: z.enum(['customer', 'supplier']).optional(),
});
