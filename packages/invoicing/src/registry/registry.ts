// The resource registry: overlay (paths, search, sorts, read-only) merged with the generated
// columns. Built once at import; a name in the overlay that the database does not have is a bug
// caught here, at startup, rather than as a SQL error on some request.
import { generatedTables } from '../generated/tables.ts';
import { overlays } from './overlay.ts';
import type { GeneratedTable, Resource, ResourceOverlay } from './types.ts';

export function buildRegistry(
  overlayList: ResourceOverlay[],
  tables: Record<string, GeneratedTable>,
): Resource[] {
  const seen = new Set<string>();
  return overlayList.map((o) => {
    if (seen.has(o.path)) throw new Error(`registry: resource path '${o.path}' is declared twice`);
    seen.add(o.path);
    const table = tables[o.table];
    if (!table) throw new Error(`registry: resource '${o.path}' names table '${o.table}', which schema invoicing lacks`);
    const names = new Set(table.columns.map((c) => c.name));
    const used = [...o.searchColumns, ...o.defaultSort.map((s) => s.column), 'id', 'company_id'];
    for (const column of used) {
      if (!names.has(column)) throw new Error(`registry: resource '${o.path}' uses column '${column}', which ${o.table} lacks`);
    }
    // views (members) are read-only whatever the overlay says
    return { ...o, readOnly: o.readOnly || table.isView, columns: table.columns };
  });
}

export const resources: Resource[] = buildRegistry(overlays, generatedTables);

const byPath = new Map(resources.map((r) => [r.path, r]));

/** The resource at a URL path segment, or undefined (→ 404). */
export function findResource(path: string): Resource | undefined {
  return byPath.get(path);
}
