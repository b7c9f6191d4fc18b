import type { FreezeKind } from '../kernel/freezes.ts';

/** A user's freeze changed: the kind set or lifted, and every kind in force after it. */
export type UserFreezeChangedEvent = {
  type: 'userFreezeChanged';
  userId: number;
  kind: FreezeKind;
  frozen: boolean;
  kinds: FreezeKind[];
};

export type FreezeEvent = UserFreezeChangedEvent;
