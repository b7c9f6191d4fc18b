import { lazy, Suspense } from 'react';
import { useSession } from '../../data/session.ts';

// The liabilities check at login (issue 42): once a user is signed in, the browser checks the exchange's log
// against what it saw before and the user's balances against the latest published total, once per browser
// session, and says the result in a toast (a failure stays longer and points to /transparency). Mounted
// once, in the app layout; the check (LoginWitnessCheck.tsx) loads only for a signed-in reader.

const LoginWitnessCheck = lazy(() => import('./LoginWitnessCheck.tsx'));

export function LoginWitness() {
  const userId = useSession((state) => (state.token === null ? null : (state.userId ?? '')));
  if (userId === null) return null;
  return (
    <Suspense fallback={null}>
      <LoginWitnessCheck userId={userId} />
    </Suspense>
  );
}
