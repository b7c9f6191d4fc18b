// Contact details and community links belong to whoever operates the exchange, so they come from the
// build environment. Links that are not configured are not shown (no invented addresses).

export interface CommunityLink {
  name: 'x' | 'telegram' | 'discord' | 'github';
  url: string;
}

function configured(value: string | undefined): string | null {
  return value !== undefined && value.trim() !== '' ? value.trim() : null;
}

export const siteContactEmail: string | null = configured(import.meta.env.VITE_CONTACT_EMAIL);

export const communityLinks: readonly CommunityLink[] = (
  [
    { name: 'x', url: configured(import.meta.env.VITE_COMMUNITY_X_URL) },
    { name: 'telegram', url: configured(import.meta.env.VITE_COMMUNITY_TELEGRAM_URL) },
    { name: 'discord', url: configured(import.meta.env.VITE_COMMUNITY_DISCORD_URL) },
    { name: 'github', url: configured(import.meta.env.VITE_COMMUNITY_GITHUB_URL) },
  ] as const
).flatMap((link) => (link.url === null ? [] : [{ name: link.name, url: link.url }]));
