// The configuration every function needs, from the variables Supabase's edge runtime sets.
import { readEnv, requireEnv } from './env.ts';

export interface EdgeConfig {
  supabaseUrl: string;
  dbUrl: string;
  anonKey?: string;
  serviceRoleKey?: string;
  /** Legacy HS256 secret; hosted projects only have it when a custom secret is configured. */
  jwtSecret?: string;
  /** Inline JWKS (SUPABASE_JWKS); when absent the verifier fetches `<url>/auth/v1/.well-known/jwks.json`. */
  jwks?: { keys: JsonWebKey[] };
  publishableKeys: string[];
  secretKeys: string[];
}

function keyMap(json: string | undefined): string[] {
  if (!json) return [];
  try {
    return Object.values(JSON.parse(json) as Record<string, string>);
  } catch {
    return [];
  }
}

export function edgeConfigFromEnv(): EdgeConfig {
  const jwks = readEnv('SUPABASE_JWKS');
  return {
    supabaseUrl: requireEnv('SUPABASE_URL'),
    dbUrl: requireEnv('SUPABASE_DB_URL'),
    anonKey: readEnv('SUPABASE_ANON_KEY'),
    serviceRoleKey: readEnv('SUPABASE_SERVICE_ROLE_KEY'),
    jwtSecret: readEnv('SUPABASE_JWT_SECRET') ?? readEnv('JWT_SECRET'),
    jwks: jwks ? JSON.parse(jwks) : undefined,
    publishableKeys: keyMap(readEnv('SUPABASE_PUBLISHABLE_KEYS')),
    secretKeys: keyMap(readEnv('SUPABASE_SECRET_KEYS')),
  };
}
