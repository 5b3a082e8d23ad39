// Database rows → response objects: money as numbers with at most 2 decimals, timestamps as
// ISO strings (whether the row came from a query or from jsonb).
import { centsFromNumeric, centsToNumber } from './money.ts';

export interface ExpenseRow {
  id: string;
  group_id: string;
  paid_by: string;
  amount: number;
  description: string;
  split_among: string[];
  category: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (value: unknown) => new Date(value as string | Date).toISOString();

/** Columns to select so `toExpense` gets exact amounts. */
export const EXPENSE_COLUMNS = 'id, group_id, paid_by, amount::text as amount, description, split_among, category, created_at, updated_at';

export function toExpense(row: Record<string, unknown>): ExpenseRow {
  return {
    id: row.id as string,
    group_id: row.group_id as string,
    paid_by: row.paid_by as string,
    amount: centsToNumber(centsFromNumeric(String(row.amount))),
    description: row.description as string,
    split_among: (row.split_among as string[] | null) ?? [],
    category: (row.category as string | null) ?? null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function toMember(row: Record<string, unknown>) {
  return { id: row.id as string, name: row.name as string, user_id: (row.user_id as string | null) ?? null, created_at: iso(row.created_at) };
}

export function toSettlement(row: Record<string, unknown>) {
  return {
    id: row.id as string,
    group_id: row.group_id as string,
    from_member_id: row.from_member_id as string,
    to_member_id: row.to_member_id as string,
    amount: centsToNumber(centsFromNumeric(String(row.amount))),
    settled_by: (row.settled_by as string | null) ?? null,
    created_at: iso(row.created_at),
  };
}
