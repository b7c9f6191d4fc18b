/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_CONTACT_EMAIL?: string;
  readonly VITE_COMMUNITY_X_URL?: string;
  readonly VITE_COMMUNITY_TELEGRAM_URL?: string;
  readonly VITE_COMMUNITY_DISCORD_URL?: string;
  readonly VITE_COMMUNITY_GITHUB_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
