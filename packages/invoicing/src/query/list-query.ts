// The parsed form of a list request: what query-parser.ts produces and sql-builder.ts consumes.
// Every column name in here has been checked against the resource's columns.
import type { SortKey } from '../registry/types.ts';
import type { Scalar } from './coerce.ts';

export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'starts' | 'ends' | 'in' | 'null';

export interface Filter {
  column: string;
  op: FilterOp;
  /** Scalar for most ops, a list for `in`, a boolean for `null`. */
  value: Scalar | Scalar[];
}

export interface ListQuery {
  limit: number;
  offset: number;
  /** 1-based page that `offset` falls on. */
  page: number;
  sort: SortKey[];
  /** null = every column. */
  select: string[] | null;
  /** false for `count=none`. */
  count: boolean;
  filters: Filter[];
  /** Raw search term (escaped by the SQL builder), or null. */
  search: string | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
