// HTTP helpers for the splitting e2e tests: calls through the gateway like a client would.
import type { TestStack } from '../support/stack.ts';

export interface Call {
  status: number;
  body: any;
}

export function caller(stack: TestStack) {
  return async function call(
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; rawBody?: string; apikey?: string; headers?: Record<string, string> } = {},
  ): Promise<Call> {
    const headers: Record<string, string> = { apikey: opts.apikey ?? stack.keys.anonKey, ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.url}/functions/v1/${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, body: parsed };
  };
}
