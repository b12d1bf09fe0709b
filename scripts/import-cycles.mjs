// `node scripts/import-cycles.mjs`: finds import cycles in the repository's TypeScript (part of
// `npm run lint`) and fails on any. A cycle makes the order modules load in decide what a module
// sees of another at start-up, and it ties files that should stand one above the other; type-only
// imports count too, since they tie the files as tightly for the reader and the compiler.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each part of the repository with the resolution its tsconfig gives it. The options are written
 * out (madge hands them to TypeScript as tsconfig JSON): the web app's `@/` alias needs its base.
 */
const PARTS = [
  { dir: 'packages/domain/src', compilerOptions: {} },
  { dir: 'apps/server/src', compilerOptions: {} },
  { dir: 'apps/web/src', compilerOptions: { baseUrl: join(root, 'apps/web'), paths: { '@/*': ['./src/*'] }, jsx: 'react-jsx' } },
];

let cycles = 0;
for (const part of PARTS) {
  const result = await madge(join(root, part.dir), {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    excludeRegExp: [/\.d\.ts$/],
    tsConfig: {
      compilerOptions: { module: 'esnext', moduleResolution: 'bundler', allowImportingTsExtensions: true, ...part.compilerOptions },
    },
  });
  // An import that resolves to nothing is an import the check cannot follow, so a cycle could hide behind it.
  const unresolved = result.warnings().skipped.filter((name) => name.startsWith('.') || name.startsWith('@/'));
  if (unresolved.length > 0) {
    console.error(`${part.dir}: imports that do not resolve, so cycles through them go unseen: ${unresolved.join(', ')}`);
    process.exitCode = 1;
  }
  for (const cycle of result.circular()) {
    console.error(`import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
    cycles += 1;
  }
}
if (cycles > 0) {
  console.error(`${cycles} import cycle(s): move what both sides need into a file that imports neither.`);
  process.exitCode = 1;
} else if (!process.exitCode) {
  console.log('import cycles: 0 (packages/domain, apps/server, apps/web)');
}
