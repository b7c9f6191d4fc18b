// Full page reloads (language change, logout) go through here, so tests can watch them.
export const pageControl = {
  reload(): void {
    globalThis.location.reload();
  },
};

export function reloadPage(): void {
  pageControl.reload();
}

export function reloadPageAfter(delayMs: number): void {
  setTimeout(reloadPage, delayMs);
}
