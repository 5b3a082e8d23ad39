// `npm start` as a user runs it: a child process on a temp data dir and free ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { freePort } from '../../packages/local/src/free-port.ts';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'packages/local/src/cli.ts');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startCli(command: string, env: Record<string, string>): Running {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', cli, command], { cwd: root, env: { ...process.env, ...env } });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitFor(run: Running, pattern: RegExp, ms = 40_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(run.output())) {
    if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`did not see ${pattern}:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let dataDir: string;
let env: Record<string, string>;
let first: Running;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ledgerbase-cli-'));
  env = { LEDGERBASE_DATA_DIR: dataDir, API_PORT: String(await freePort()), DB_PORT: String(await freePort()) };
  first = startCli('start', env);
  await waitFor(first, /Press Ctrl-C to stop/);
}, 60_000);

afterAll(async () => {
  if (first.child.exitCode === null) first.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('prints a status block with the URLs and keys', () => {
    expect(first.output()).toContain(`API URL: http://127.0.0.1:${env.API_PORT}`);
    expect(first.output()).toMatch(/Publishable key: sb_publishable_/);
    expect(first.output()).toMatch(/anon key: eyJ/);
  });

  it('serves the gateway: JWKS is reachable', async () => {
    const res = await fetch(`http://127.0.0.1:${env.API_PORT}/auth/v1/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect((await res.json()).keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
  });

  it('prints the status JSON object for scripts', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', cli, 'status'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(res.status).toBe(0);
    const status = JSON.parse(res.stdout);
    expect(Object.keys(status).sort()).toEqual(
      ['ANON_KEY', 'API_URL', 'DB_URL', 'FUNCTIONS_URL', 'INVOICING_URL', 'JWKS_URL', 'PUBLISHABLE_KEY', 'REALTIME_URL', 'SECRET_KEY', 'SERVICE_ROLE_KEY'],
    );
    expect(status.FUNCTIONS_URL).toBe(`http://127.0.0.1:${env.API_PORT}/functions/v1`);
  });

  it('refuses a second start on the same data dir and exits non-zero', async () => {
    const second = startCli('start', { ...env, API_PORT: String(await freePort()), DB_PORT: String(await freePort()) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/already running/);
  });

  it('stops PostgreSQL cleanly on SIGTERM and starts again warm on the same data', async () => {
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    const again = startCli('start', env);
    await waitFor(again, /Press Ctrl-C to stop/);
    expect(again.output()).not.toMatch(/Applied \d+ migration/); // nothing new to apply
    const refused = spawnSync(process.execPath, ['--import', 'tsx', cli, 'reset'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/is running/);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('reset wipes the data directory once stopped', () => {
    const reset = spawnSync(process.execPath, ['--import', 'tsx', cli, 'reset'], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(reset.status).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('npm start: failures are one line', () => {
  let blocker: Server;
  afterAll(() => blocker?.close());

  it('says which port is in use', async () => {
    const port = await freePort();
    blocker = createServer().listen(port, '127.0.0.1');
    const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-cli-'));
    const run = startCli('start', { LEDGERBASE_DATA_DIR: dir, API_PORT: String(port), DB_PORT: String(await freePort()) });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe(`error: API port ${port} on 127.0.0.1 is already in use (set API_PORT to use another)`);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('DATABASE_URL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('runs against an existing PostgreSQL without re-applying anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledgerbase-cli-'));
    const run = startCli('start', { LEDGERBASE_DATA_DIR: dir, API_PORT: String(await freePort()), DATABASE_URL: db.url });
    await waitFor(run, /Press Ctrl-C to stop/);
    expect(run.output()).toContain(db.url);
    expect(existsSync(join(dir, 'postgres'))).toBe(false);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});
