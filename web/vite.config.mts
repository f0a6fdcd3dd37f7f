import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

// The API serves the build at /app (api/routes/dashboard.ts) and answers its calls at /trpc on the same origin.
export default defineConfig({
  root: here,
  base: '/app/',
  build: { outDir: path.join(here, 'dist'), emptyOutDir: true },
  oxc: { jsx: { runtime: 'automatic' } },
  server: { proxy: { '/trpc': 'http://localhost:3000' } },
});
