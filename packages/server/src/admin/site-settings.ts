// Site-wide settings (table site_settings): read by the public calls that answer them, changed from the
// back office's settings screen with an audit entry in the same transaction. An empty value means not set.
import { AppError } from '../http/app-error.ts';
import type { Queryable, Store } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { changedFields, recordChange } from './audit-changes.ts';

/** Every site setting and what it holds. */
export const SITE_SETTING_KEYS = ['customer_service_url'] as const;
export type SiteSettingKey = (typeof SITE_SETTING_KEYS)[number];
export type SiteSettings = Record<SiteSettingKey, string>;

export async function readSiteSettings(db: Queryable): Promise<SiteSettings> {
  const { rows } = await db.query<{ key: string; value: string }>(
    'select key, value from site_settings where key = any($1)',
    [[...SITE_SETTING_KEYS]],
  );
  const values = Object.fromEntries(SITE_SETTING_KEYS.map((key) => [key, ''])) as SiteSettings;
  for (const row of rows) values[row.key as SiteSettingKey] = row.value;
  return values;
}

/** Stores the changed site settings with their audit entry, in one transaction. */
export async function updateSiteSettings(
  store: Store,
  actor: Actor,
  update: Partial<SiteSettings>,
): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock(hashtext('site_settings'))");
    const before = await readSiteSettings(tx);
    const changed = changedFields(before, update);
    const keys = Object.keys(changed.after) as SiteSettingKey[];
    if (keys.length === 0) throw new AppError('backoffice.nothing_changed');
    for (const key of keys) {
      await tx.query(
        `insert into site_settings (key, value) values ($1, $2)
           on conflict (key) do update set value = excluded.value, updated_at = now()`,
        [key, changed.after[key]],
      );
    }
    await recordChange(tx, actor, { action: 'site.update', targetType: 'site', targetId: 1, ...changed });
  });
}
