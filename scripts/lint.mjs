// Lints the house rules of DESIGN.md that tsc and deno check cannot see:
// - functions/ and packages/{edge,splitting,invoicing} are Deno-compatible: no `node:` imports,
//   no `process` global, no `jsr:` imports (JSR is unreachable), relative imports end in `.ts`;
// - functions/<name>/index.ts is a tiny entry: imports and one Deno.serve(...) call;
// - every [functions.<name>] block of config.toml has a functions/<name>/index.ts and vice versa.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const problems = [];
const report = (file, line, message) => problems.push(`${relative(root, file)}:${line}: ${message}`);

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(ts|tsx|mts)$/.test(name)) yield path;
  }
}

const denoDirs = ['functions', 'packages/edge', 'packages/splitting', 'packages/invoicing'].map((d) => join(root, d));
for (const dir of denoDirs) {
  for (const file of files(dir)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      const line = i + 1;
      if (/from\s+['"]node:|import\(\s*['"]node:/.test(text)) report(file, line, 'node: import in Deno-compatible code');
      if (/from\s+['"]jsr:/.test(text)) report(file, line, 'jsr: import (JSR is not reachable)');
      if (/(^|[^.\w])process\.(env|argv|exit|cwd)/.test(text)) report(file, line, '`process` used in Deno-compatible code');
      const rel = /from\s+['"](\.{1,2}\/[^'"]+)['"]/.exec(text);
      if (rel && !rel[1].endsWith('.ts') && !rel[1].endsWith('.json')) report(file, line, `relative import without .ts: ${rel[1]}`);
    });
  }
}

const functionsDir = join(root, 'functions');
const deployed = existsSync(functionsDir) ? readdirSync(functionsDir).filter((n) => statSync(join(functionsDir, n)).isDirectory()) : [];
for (const name of deployed) {
  const entry = join(functionsDir, name, 'index.ts');
  if (!existsSync(entry)) {
    report(join(functionsDir, name), 0, 'function directory without index.ts');
    continue;
  }
  const code = readFileSync(entry, 'utf8').split('\n').filter((l) => l.trim() && !l.trim().startsWith('//'));
  const other = code.filter((l) => !/^\s*import\s/.test(l) && !/^\s*Deno\.serve\(/.test(l) && !/^\s*[}'"\w].*from\s+['"]/.test(l));
  if (other.length) report(entry, 0, 'an entry holds only imports and Deno.serve(app.fetch)');
}

const toml = readFileSync(join(root, 'supabase/config.toml'), 'utf8');
const configured = [...toml.matchAll(/^\[functions\.([\w-]+)\]/gm)].map((m) => m[1]);
for (const name of configured) {
  if (!deployed.includes(name)) problems.push(`supabase/config.toml: [functions.${name}] has no functions/${name}/index.ts`);
  const block = toml.split(`[functions.${name}]`)[1].split(/^\[/m)[0];
  if (!block.includes(`entrypoint = "../functions/${name}/index.ts"`)) problems.push(`supabase/config.toml: [functions.${name}] needs entrypoint = "../functions/${name}/index.ts"`);
  if (!/verify_jwt\s*=/.test(block)) problems.push(`supabase/config.toml: [functions.${name}] should state verify_jwt`);
}
for (const name of deployed) {
  if (!configured.includes(name)) problems.push(`functions/${name} has no [functions.${name}] block in supabase/config.toml`);
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} lint problem(s)`);
  process.exit(1);
}
console.log('lint: ok');
