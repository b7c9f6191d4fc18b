// The header shows the account number masked, so that a shoulder or a screenshot does not give away
// the full e-mail address or phone number.

export function maskAccount(account: string): string {
  const trimmed = account.trim();
  const at = trimmed.indexOf('@');
  if (at > 0) {
    const local = trimmed.slice(0, at);
    const shown = local.length > 2 ? 2 : 1;
    return `${local.slice(0, shown)}***${trimmed.slice(at)}`;
  }
  if (trimmed.length >= 7) return `${trimmed.slice(0, 3)}****${trimmed.slice(-4)}`;
  if (trimmed.length >= 3) return `${trimmed.slice(0, 1)}***${trimmed.slice(-1)}`;
  return '***';
}
