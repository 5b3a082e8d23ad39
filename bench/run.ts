// `npm run bench [name…]`: runs every bench/<name>.ts (or only those named) in turn. Each prints
// its own figures as a ratio against a baseline measured in the same run.
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts'].includes(f) && !f.startsWith('_'))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name));

for (const name of benches) {
  console.log(`\n=== ${name} ===`);
  const mod = await import(`./${name}.ts`);
  await mod.run();
}
process.exit(0);
