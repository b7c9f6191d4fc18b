// What the token sale's, the miner's and the defi product's buy dialogs share: the typed whole quantity, the
// line that says what is wrong with it, and the send that reports the server's answer, reads the products and
// the wallets again and closes the dialog (or keeps it open with the error shown).
import { useState } from 'react';
import { useMessage } from '../../app/message.tsx';
import { useProductsRefresh } from '../../data/products.ts';
import { wholeQuantity } from './product-math.ts';

export interface BuyDialog {
  /** The quantity as typed. */
  number: string;
  setNumber: (text: string) => void;
  /** The typed quantity as a whole number of at least 1, or null. */
  quantity: bigint | null;
  /** Why nothing was sent, or null. */
  problem: string | null;
  sending: boolean;
  submit: () => Promise<void>;
}

/**
 * `send` buys `quantity`; `invalid` is the text shown, with nothing sent, when the typed quantity is not a
 * whole number of at least 1.
 */
export function useBuyDialog(options: {
  send: (quantity: bigint) => Promise<{ message: string }>;
  invalid: string;
  onClose: () => void;
}): BuyDialog {
  const message = useMessage();
  const refresh = useProductsRefresh();
  const [number, setNumber] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const quantity = wholeQuantity(number);

  const submit = async () => {
    if (quantity === null) {
      setProblem(options.invalid);
      return;
    }
    setProblem(null);
    setSending(true);
    try {
      const reply = await options.send(quantity);
      void message.success(reply.message);
      await refresh();
      options.onClose();
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  return { number, setNumber, quantity, problem, sending, submit };
}
