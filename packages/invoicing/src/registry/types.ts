// The shape of the resource registry: the generated part (columns, from the migrated database by
// `npm run gen`) plus the hand-written overlay (paths, search columns, default sorts, read-only).
// It drives validation, SQL and OpenAPI; nothing declares a table's columns by hand.

/** One column as introspected from information_schema (schema `invoicing`). */
export interface GeneratedColumn {
  name: string;
  /** Postgres type: udt_name, e.g. 'uuid', 'text', 'numeric', 'int4', 'bool', 'date', 'timestamptz', 'jsonb', '_text', '_uuid', 'bpchar', 'varchar'. */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  /** GENERATED ALWAYS … STORED or identity: never writable. */
  generated: boolean;
  /** numeric precision/scale, varchar length when declared. */
  precision?: number;
  scale?: number;
  maxLength?: number;
  /** Allowed values when a CHECK constrains the column to a list (enum-as-text). */
  enumValues?: string[];
}

export interface GeneratedTable {
  /** Table or view name in schema `invoicing`. */
  name: string;
  isView: boolean;
  columns: GeneratedColumn[];
}

export interface SortKey {
  column: string;
  desc: boolean;
}

/** Hand-written per resource: what cannot be read off the database. */
export interface ResourceOverlay {
  /** URL path segment, e.g. 'invoice-items'. */
  path: string;
  /** Table/view in schema `invoicing`, e.g. 'invoice_items'. */
  table: string;
  searchColumns: string[];
  /** Default sort; `id` is always appended as the final tie-break. */
  defaultSort: SortKey[];
  readOnly: boolean;
  /** Human description used in OpenAPI. */
  description: string;
}

export interface Resource extends ResourceOverlay {
  columns: GeneratedColumn[];
}
