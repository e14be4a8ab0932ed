import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The viewer's record reader runs in a worker thread: its script is an entry of its own.
    entry: { 'agent-server': 'src/agent-server.ts', 'record-worker': 'src/viewer/record-worker.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    // Only its own files: the viewer's bundle beside it comes from the second build.
    clean: ['agent-server.*', 'record-worker.*'],
    target: 'node20',
  },
  {
    // The viewer's page (--viewer): bundled for the browser, served from dist/viewer/ with no CDN.
    entry: { app: 'src/viewer-ui/main.ts' },
    outDir: 'dist/viewer',
    format: ['iife'],
    platform: 'browser',
    target: 'es2020',
    dts: false,
    sourcemap: false,
    minify: true,
    clean: true,
    outExtension: () => ({ js: '.js' }),
    onSuccess: 'cp src/viewer-ui/app.css dist/viewer/app.css',
  },
]);
