// The npm registry reachable here mirrors only the linux-x64 builds of packages that ship one
// binary package per platform (deno, the Supabase CLI), so `npm install` cannot record the other
// platforms' optional dependencies and `npm ci` then refuses the lock as out of sync. This adds
// a lock entry for each missing platform package, with the os/cpu/libc its name states; npm skips
// such entries on a non-matching machine without fetching them. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const OS = { darwin: 'darwin', linux: 'linux', win32: 'win32', windows: 'win32' };
const added = [];

function platformOf(name) {
  const m = /[-/](darwin|linux|win32|windows)-(x64|arm64)(?:-(glibc|musl))?$/.exec(name);
  if (!m) return null;
  return { os: [OS[m[1]]], cpu: [m[2]], ...(m[1] === 'linux' ? { libc: [m[3] ?? 'glibc'] } : {}) };
}

for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (lock.packages[key]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[key] = { version, ...platform, ...(entry.dev ? { dev: true } : {}), optional: true };
    added.push(`${dep}@${version} (for ${path || 'root'})`);
  }
}

lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(added.length ? `added lock entries:\n  ${added.join('\n  ')}` : 'lock already lists every platform package');
