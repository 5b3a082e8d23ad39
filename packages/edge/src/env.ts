// Reads the environment the edge runtime provides. Under Deno that is Deno.env; under Node (the
// local gateway, tests) it is Node's environment object, reached through globalThis so this file
// stays free of `node:` imports, as Deno-compatible code must.
type EnvSource = { get(name: string): string | undefined };

function defaultSource(): EnvSource {
  const g = globalThis as unknown as {
    Deno?: { env: EnvSource };
    process?: { env: Record<string, string | undefined> };
  };
  if (g.Deno?.env) return g.Deno.env;
  const env = g.process?.env ?? {};
  return { get: (name) => env[name] };
}

export function readEnv(name: string, source: EnvSource = defaultSource()): string | undefined {
  const value = source.get(name);
  return value === undefined || value === '' ? undefined : value;
}

export function requireEnv(name: string, source?: EnvSource): string {
  const value = readEnv(name, source);
  if (value === undefined) throw new Error(`environment variable ${name} is not set`);
  return value;
}
