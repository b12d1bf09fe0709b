import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': src } },
  server: {
    // The API server runs separately in development; the built console is served by it.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // The domain package only declares; without this hint every page would load zod
        // because its schema modules call z.object() at the top level.
        moduleSideEffects: (id) => (/[\\/]packages[\\/]domain[\\/]/.test(id) ? false : undefined),
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.tsx', 'src/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // A test may wait for two lazy pages, each allowed the 5 s of asyncUtilTimeout on a busy machine.
    testTimeout: 20_000,
    // A file's beforeAll may import its lazy pages up front: on a loaded 2-core machine that
    // import alone has taken over 10 s.
    hookTimeout: 60_000,
    // Files share a worker and its jsdom instead of each starting one (about a second apiece);
    // the setup file resets the DOM, storage, timers, toasts and the session after every test.
    isolate: false,
    // As the root config: at least two workers, also on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
