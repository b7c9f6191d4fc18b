// The template the specs describe used hash routing, so links such as
// `/#/components/register?extension_code=ABC` are in circulation (registration invites above all).
// The app uses real paths; a hash that starts with `#/` is read as the path it stands for.

/** The path a template hash link stands for, or null when the hash is an ordinary fragment. */
export function pathFromHashLink(hash: string): string | null {
  if (!hash.startsWith('#/')) return null;
  return hash.slice(1);
}

/** Rewrites the address bar before the router starts, so the first render is already the right page. */
export function normalizeHashLink(location: Location, history: History): void {
  const path = pathFromHashLink(location.hash);
  if (path !== null) history.replaceState(history.state, '', path);
}
