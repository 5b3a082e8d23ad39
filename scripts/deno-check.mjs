// `deno check` of every deployed entry, functions/*/index.ts, in one run (one type-check graph).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const entries = existsSync(join(root, 'functions'))
  ? readdirSync(join(root, 'functions'))
      .map((name) => join('functions', name, 'index.ts'))
      .filter((entry) => existsSync(join(root, entry)))
  : [];
if (entries.length === 0) {
  console.log('deno check: no functions/*/index.ts to check');
  process.exit(0);
}
const deno = join(root, 'node_modules', '.bin', 'deno');
const result = spawnSync(deno, ['check', '--quiet', ...entries], { cwd: root, stdio: 'inherit' });
if (result.status === 0) console.log(`deno check: ${entries.length} function entries ok`);
process.exit(result.status ?? 1);
