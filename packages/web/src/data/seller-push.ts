import { socketManager } from './socket.ts';
import { applySellerPush } from './seller.ts';

// The `seller` push's listener, loaded by the header once a user is logged in (seller.ts explains why it
// is a module of its own). Returns the function that stops listening.

export function listenForSeller(onChange?: () => void): () => void {
  return socketManager.on('seller', (payload) => {
    applySellerPush(payload);
    onChange?.();
  });
}
