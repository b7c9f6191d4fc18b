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
    // antd is large; keep it in its own long-lived chunk so screen code can change without
    // invalidating it in browser caches.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            {
              name: 'antd',
              // Locale files stay out of the group so that each language's antd strings load on demand.
              test: (id) => /node_modules[\\/](antd|@ant-design|@rc-component)[\\/]/.test(id) && !/[\\/]locale[\\/]/.test(id),
            },
          ],
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
