// Where the server lives. By default the web app is served by the API's own server and every address is
// relative to the page. A build with VITE_API_BASE (e.g. https://api.example.com) sends /api calls, the
// socket.io connection and server-relative files (uploaded images, logos) there instead, so the app can be
// served from another origin; that origin must then be listed in the server's CORS_ORIGINS.

/** The configured base without a trailing slash; "" for the page's own origin. */
export function normalizeApiBase(value: string | undefined): string {
  const base = (value ?? '').trim().replace(/\/+$/, '');
  if (base === '') return '';
  if (!URL.canParse(base) || !['http:', 'https:'].includes(new URL(base).protocol)) {
    throw new Error('VITE_API_BASE must be an http(s) address such as https://api.example.com');
  }
  return base;
}

/** A server-relative address ("/api/...", "/uploads/...") on `base`; anything else as it is. */
export function onApiBase(base: string, address: string): string {
  return base !== '' && address.startsWith('/') && !address.startsWith('//') ? `${base}${address}` : address;
}

export const API_BASE = normalizeApiBase(import.meta.env.VITE_API_BASE);

/** `address` on the configured API base. */
export const apiAddress = (address: string): string => onApiBase(API_BASE, address);
