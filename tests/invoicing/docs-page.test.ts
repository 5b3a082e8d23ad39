// GET /v1/docs in headless Chromium (Debian's `chromium` package), driven over the DevTools
// protocol with `ws`: the page loads with no console errors, requests nothing but this service
// (no CDN), and lists every resource. Skipped, saying why, when Chromium is not installed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resources } from '../../packages/invoicing/src/registry/registry.ts';
import { startInvoicing, type InvoicingHarness } from './support.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`docs-page test skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);

/** A minimal DevTools-protocol client: one flat session on one page target. */
class Cdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  readonly events: { method: string; params: any }[] = [];
  sessionId?: string;
  constructor(private ws: WebSocket) {
    ws.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.id && this.pending.has(msg.id)) {
        const p = this.pending.get(msg.id)!;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error.message));
        else p.resolve(msg.result);
      } else if (msg.method) {
        this.events.push({ method: msg.method, params: msg.params });
      }
    });
  }
  send(method: string, params: object = {}, session = this.sessionId): Promise<any> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params, ...(session ? { sessionId: session } : {}) }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }
  async evaluate(expression: string): Promise<any> {
    const r = await this.send('Runtime.evaluate', { expression, returnByValue: true });
    return r.result.value;
  }
}

let h: InvoicingHarness;
let browser: ChildProcess | undefined;
let profile: string | undefined;

async function launch(): Promise<string> {
  profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  browser = spawn(CHROMIUM, [
    '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
    '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${err}`)), 30_000);
    browser!.stderr!.on('data', (chunk) => {
      err += chunk;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    browser!.once('exit', (code) => reject(new Error(`chromium exited ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  h = await startInvoicing();
}, 90_000);
afterAll(async () => {
  if (browser && browser.exitCode === null) {
    const exited = new Promise((resolve) => browser!.once('exit', resolve));
    browser.kill('SIGKILL');
    await exited;
  }
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  await h?.stop();
});

it.skipIf(!hasChromium)('renders every resource with no console errors and no outside requests', async () => {
  const ws = new WebSocket(await launch());
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const cdp = new Cdp(ws);
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  cdp.sessionId = (await cdp.send('Target.attachToTarget', { targetId, flatten: true })).sessionId;
  await Promise.all(['Runtime.enable', 'Log.enable', 'Page.enable', 'Network.enable'].map((m) => cdp.send(m)));

  const url = `${h.stack.url}/functions/v1/invoicing/v1/docs`;
  // the function route needs the apikey: send it as the gateway accepts it, a header
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { apikey: h.stack.keys.publishableKey } });
  await cdp.send('Page.navigate', { url });
  let ready: string | null = null;
  for (let i = 0; i < 100 && !ready; i++) {
    await new Promise((r) => setTimeout(r, 100));
    ready = await cdp.evaluate("document.body && document.body.getAttribute('data-ready')");
  }
  expect(ready).toBe('true');

  const shown: string[] = await cdp.evaluate("Array.from(document.querySelectorAll('nav a')).map(a => a.getAttribute('data-resource'))");
  for (const r of resources) expect(shown).toContain(r.path);
  const operations: number = await cdp.evaluate("document.querySelectorAll('details.op').length");
  expect(operations).toBeGreaterThan(resources.length * 2);

  const consoleErrors = cdp.events.filter(
    (e) =>
      (e.method === 'Runtime.consoleAPICalled' && e.params.type === 'error') ||
      e.method === 'Runtime.exceptionThrown' ||
      (e.method === 'Log.entryAdded' && e.params.entry.level === 'error'),
  );
  expect(consoleErrors).toEqual([]);
  const requested = cdp.events.filter((e) => e.method === 'Network.requestWillBeSent').map((e) => e.params.request.url as string);
  expect(requested.length).toBeGreaterThanOrEqual(2); // the page and openapi.json
  expect(requested.filter((u) => !u.startsWith(h.stack.url) && !u.startsWith('data:'))).toEqual([]);
  ws.close();
}, 60_000);
