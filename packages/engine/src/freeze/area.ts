// The freeze area: the journaled command that sets and lifts a user's freeze, its query and its snapshot
// section. The freezes themselves are the kernel's (kernel/freezes.ts), because the kernel checks them
// before any area's handler runs, against the rule each area declares per command (Area.freezes).
import { command, defineArea } from '../kernel/area.ts';
import type { CommandContext } from '../kernel/context.ts';
import { FreezeResultCode, NOT_FROZEN, isFreezeKind } from '../kernel/freezes.ts';
import type { FreezeKind, UserFreezeBook } from '../kernel/freezes.ts';
import { invariant } from '../invariant.ts';
import { MAX_USER_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount } from '../validate.ts';
import type { SetUserFreezeCommand, SetUserFreezeReply } from './commands.ts';

export type FreezeQueries = {
  /** The kinds a user is frozen for (empty when none), in the order trading, withdrawals, full. */
  kindsOf(userId: number): FreezeKind[];
  /** Every frozen user, ascending, with their kinds. */
  frozenUsers(): { userId: number; kinds: FreezeKind[] }[];
};

/** The snapshot section: users ascending, each with its kinds. */
type FreezeRow = [userId: number, kinds: FreezeKind[]];

function setUserFreeze(ctx: CommandContext, book: UserFreezeBook, c: SetUserFreezeCommand): number {
  if (!isCount(c.userId, MAX_USER_ID)) return ResultCode.invalidOwner;
  if (!isFreezeKind(c.kind)) return FreezeResultCode.invalidFreezeKind;
  if (typeof c.frozen !== 'boolean') return ResultCode.invalidField;
  const before = book.mask(c.userId);
  const after = book.set(c.userId, c.kind, c.frozen);
  const kinds = book.kinds(c.userId);
  if (after !== before) {
    ctx.emit({ type: 'userFreezeChanged', userId: c.userId, kind: c.kind, frozen: c.frozen, kinds });
  }
  const reply: SetUserFreezeReply = { userId: c.userId, kinds };
  ctx.reply(reply);
  return ResultCode.ok;
}

export const freezeArea = defineArea({
  name: 'freeze',
  sections: ['freezes'],
  commands: {
    setUserFreeze: command<UserFreezeBook, SetUserFreezeCommand>(setUserFreeze),
  },
  freezes: { setUserFreeze: NOT_FROZEN },
  createState: (setup) => setup.freezes,
  queries: (book): FreezeQueries => ({
    kindsOf: (userId) => book.kinds(userId),
    frozenUsers: () => book.entries().map(([userId, kinds]) => ({ userId, kinds })),
  }),
  // Written only while someone is frozen: a state that never froze anyone keeps its text and hash, and a
  // snapshot from before freezes existed loads as "nobody frozen".
  writeSnapshot: (book) => ({
    freezes: book.size === 0 ? undefined : (book.entries() satisfies FreezeRow[]),
  }),
  readSnapshot: (book, document) => {
    book.clear();
    const rows = (document.freezes ?? []) as FreezeRow[];
    for (const [userId, kinds] of rows) {
      invariant(isCount(userId, MAX_USER_ID) && kinds.length > 0, `snapshot freeze of ${userId}`);
      for (const kind of kinds) {
        invariant(isFreezeKind(kind), `snapshot freeze kind ${String(kind)}`);
        book.set(userId, kind, true);
      }
    }
  },
  resultCodes: FreezeResultCode,
  stats: (book) => ({ frozenUsers: book.size }),
});
