/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_COMMUNITY_X_URL?: string;
  readonly VITE_COMMUNITY_TELEGRAM_URL?: string;
  readonly VITE_COMMUNITY_DISCORD_URL?: string;
  readonly VITE_COMMUNITY_GITHUB_URL?: string;
  /** The API's origin when the web app is served from another one (data/api-base.ts). */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
