// The account centre shows bound contacts partly hidden, like the header's account number.

export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at <= 0) return email;
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length - 1) || 1)}***${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  if (phone.length <= 4) return phone;
  if (phone.length < 8) return `${phone.slice(0, 1)}***${phone.slice(-2)}`;
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}
