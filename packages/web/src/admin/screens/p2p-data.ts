// The P2P back-office screen's readers (P2pPage.tsx): pure functions, tested in p2p-data.test.ts.

/** The back office's reader of an order image: the upload's id taken from the address the users' reader names. */
export function adminImagePath(image: string): string {
  const id = /[?&]id=([^&]+)/.exec(image)?.[1] ?? image;
  return `/api/backoffice/p2p/image?id=${encodeURIComponent(decodeURIComponent(id))}`;
}

/** An arbitration decision may be sent once a side is chosen, the reason has ten characters and the code six digits. */
export function decideReady(to: 'buyer' | 'seller' | null, reason: string, code: string): boolean {
  return to !== null && reason.trim().length >= 10 && /^\d{6}$/.test(code);
}
