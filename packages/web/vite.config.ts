import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API server listens on 8080 in development; the dev server forwards both the HTTP API and the
// socket.io transport to it so that the browser sees one origin, exactly as in production where the
// server itself serves the built app.
const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // React in its own long-lived chunk. antd is left to the bundler's code splitting, so that a page
    // loads only the components it uses (one antd chunk held every component of every screen, the back
    // office's included, and every page loaded all of it).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
});
