// Reads the `[functions.<name>]` blocks of supabase/config.toml: which functions exist and
// whether the gateway verifies their JWT (omitted ⇒ true, as the Supabase CLI does).
import { readFileSync } from 'node:fs';

export const CONFIG_TOML = new URL('../../../../supabase/config.toml', import.meta.url).pathname;

export interface FunctionConfig {
  name: string;
  verifyJwt: boolean;
  entrypoint?: string;
}

/** Only the subset of TOML config.toml uses: [tables], `key = "string" | true | false | number`. */
export function readFunctionConfigs(file = CONFIG_TOML): FunctionConfig[] {
  const functions = new Map<string, FunctionConfig>();
  let current: FunctionConfig | undefined;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#')) continue;
    const table = /^\[(.+)\]$/.exec(line);
    if (table) {
      const fn = /^functions\.("?)([A-Za-z0-9_-]+)\1$/.exec(table[1]);
      current = fn ? { name: fn[2], verifyJwt: true } : undefined;
      if (current) functions.set(current.name, current);
      continue;
    }
    const kv = /^([A-Za-z0-9_]+)\s*=\s*(.+)$/.exec(line);
    if (!current || !kv) continue;
    const value = kv[2].trim();
    if (kv[1] === 'verify_jwt') current.verifyJwt = value !== 'false';
    if (kv[1] === 'entrypoint') current.entrypoint = value.replace(/^"(.*)"$/, '$1');
  }
  return [...functions.values()];
}
