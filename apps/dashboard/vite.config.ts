import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The service serves dist/ under /payment/dashboard/ with a strict CSP
// (script-src 'self', style-src 'self'): the page must carry no inline script,
// so the module-preload polyfill, which Vite inlines, is left out (every
// browser the dashboard supports preloads modules natively).
export default defineConfig({
  base: '/payment/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    // No asset is inlined as a data: URL into CSS or JS; fonts and images stay files.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npm run start` of the service on :3000 answers the API during development.
    proxy: { '/payment/dashboard/api': 'http://localhost:3000' },
  },
});
