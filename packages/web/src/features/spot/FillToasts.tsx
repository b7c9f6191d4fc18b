import { lazy, Suspense } from 'react';
import { useSession } from '../../data/session.ts';

// Notices of one's own fills on every page: the server pushes each fill of the signed-in user's spot orders,
// on any pair, to the user's room (`my_fill`); a toast says what traded at what price and fee, and a short
// tone sounds when the reader turned that on (preference `fill_sound`). Mounted once, in the app layout; the
// listener (FillListener.tsx, with the realtime connection) loads only once someone is signed in, so a
// visitor's first download does not carry it.

const FillListener = lazy(() => import('./FillListener.tsx'));

export function FillToasts() {
  const signedIn = useSession((state) => state.token !== null);
  if (!signedIn) return null;
  return (
    <Suspense fallback={null}>
      <FillListener />
    </Suspense>
  );
}
