// Gateway overhead: a trivial JSON function through the gateway (apikey check + ES256 JWT
// verification + routing) vs the same Hono app served directly on node:http, same run, c=50.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { fetchListener } from '../packages/local/src/node-http.ts';
import { fmt, loadTest, startBenchStack } from './_support.ts';

const createPingApp = () => new Hono().get('*', (c) => c.json({ ok: true, at: Date.now() }));

export async function run(): Promise<void> {
  const stack = await startBenchStack({ extraFunctions: { ping: { factory: createPingApp, verifyJwt: true } } });
  const direct = createServer();
  try {
    const { token } = await stack.signUp('bench-gateway@example.com');
    await new Promise<void>((r) => direct.listen(0, '127.0.0.1', r));
    const directUrl = `http://127.0.0.1:${(direct.address() as AddressInfo).port}`;
    direct.on('request', fetchListener(createPingApp().fetch, { baseUrl: directUrl }));

    const headers = { apikey: stack.keys.anonKey, authorization: `Bearer ${token}` };
    // warm both paths (JIT, connection setup) before measuring
    await loadTest({ url: `${directUrl}/ping`, seconds: 2 });
    await loadTest({ url: `${stack.url}/functions/v1/ping`, headers, seconds: 2 });
    const base = await loadTest({ url: `${directUrl}/ping` });
    const gw = await loadTest({ url: `${stack.url}/functions/v1/ping`, headers });
    if (gw.non2xx || gw.errors) throw new Error(`gateway run had ${gw.non2xx} non-2xx and ${gw.errors} errors`);
    console.log(`direct node:http   ${fmt(base.rps, 0)} req/s  p50 ${base.p50} ms`);
    console.log(`through gateway    ${fmt(gw.rps, 0)} req/s  p50 ${gw.p50} ms  (apikey + ES256 JWT + routing)`);
    console.log(`ratio gateway/direct = ${fmt((gw.rps / base.rps) * 100)}%  (target ≥ 85%)`);
  } finally {
    direct.close();
    await stack.close();
  }
}
