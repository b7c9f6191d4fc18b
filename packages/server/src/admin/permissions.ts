// The administrator area's one permission model: what each role may do, for every administrator call
// (/api/backoffice/*, /api/admin/* and /api/admin/wallet/*). An `admin` runs the exchange; a `reviewer` checks
// identities and reads the outbox (where verification mail waits in development), nothing that moves money
// or changes the catalogue. The web console shows only the screens a role may use; the server refuses the
// rest whatever the console shows.
import type { BackofficePermission } from '@fairex/shared';
import { BACKOFFICE_PERMISSIONS } from '@fairex/shared';
import type { AdminRole } from './sessions.ts';

export { BACKOFFICE_PERMISSIONS } from '@fairex/shared';
export type { BackofficePermission } from '@fairex/shared';

const ROLE_PERMISSIONS: Record<AdminRole, readonly BackofficePermission[]> = {
  admin: BACKOFFICE_PERMISSIONS,
  reviewer: ['dashboard', 'real_name', 'outbox'],
};

export function permissionsOf(role: AdminRole): readonly BackofficePermission[] {
  return ROLE_PERMISSIONS[role];
}

export function may(role: AdminRole, permission: BackofficePermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
