// Key material of the local stack. Defaults are the Supabase CLI's well-known local keys, so an
// app configured for `supabase start` works unchanged; every value can be overridden from the
// environment. User access tokens are ES256, signed with a key kept in the data directory.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

export const CLI_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
export const CLI_PUBLISHABLE_KEY = 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';
export const CLI_SECRET_KEY = 'sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz';
/** The CLI's legacy keys expire at this fixed instant; keeping it makes them byte-identical. */
const CLI_KEY_EXP = 1983812996;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  /** Public JWK as published on the JWKS endpoint. */
  publicJwk: JWK;
}

export interface LocalKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  signingKey: SigningKey;
  /** `{keys:[…]}` as served at /auth/v1/.well-known/jwks.json */
  jwks: { keys: JWK[] };
}

async function legacyRoleKey(role: 'anon' | 'service_role', secret: string): Promise<string> {
  return new SignJWT({ iss: 'supabase-demo', role, exp: CLI_KEY_EXP })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

/** Loads the ES256 signing key from `file`, creating it on first use. */
async function loadSigningKey(file: string): Promise<SigningKey> {
  let privateJwk: JWK;
  if (existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    privateJwk = { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), alg: 'ES256' };
    writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  const { d: _private, ...pub } = privateJwk;
  const publicJwk: JWK = { ...pub, alg: 'ES256', use: 'sig', key_ops: ['verify'], ext: true };
  const privateKey = (await importJWK(privateJwk, 'ES256')) as CryptoKey;
  return { kid: privateJwk.kid!, privateKey, publicJwk };
}

export async function loadLocalKeys(
  keyDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LocalKeys> {
  mkdirSync(keyDir, { recursive: true });
  const jwtSecret = env.JWT_SECRET ?? CLI_JWT_SECRET;
  const signingKey = await loadSigningKey(join(keyDir, 'jwt-signing-key.json'));
  return {
    jwtSecret,
    anonKey: env.ANON_KEY ?? (await legacyRoleKey('anon', jwtSecret)),
    serviceRoleKey: env.SERVICE_ROLE_KEY ?? (await legacyRoleKey('service_role', jwtSecret)),
    publishableKey: env.PUBLISHABLE_KEY ?? CLI_PUBLISHABLE_KEY,
    secretKey: env.SECRET_KEY ?? CLI_SECRET_KEY,
    signingKey,
    jwks: { keys: [signingKey.publicJwk] },
  };
}
