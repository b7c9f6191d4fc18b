// Opens the SQL store (or adopts one a test injected), seeds demo data on first start, closes it with the app.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { seedDemoData } from '../../seed/index.ts';
import { seedNews } from '../../news/seed/index.ts';
import type { Store } from '../../store/index.ts';
import { openStore } from '../../store/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    store: Store;
    config: Config;
  }
}

export interface StorePluginOptions {
  config: Config;
  /** A store the caller owns (tests): used as is and not closed with the app. */
  store?: Store;
  /** Seed the demo currencies and markets when missing (default true). */
  seed?: boolean;
}

async function storePlugin(app: FastifyInstance, options: StorePluginOptions): Promise<void> {
  const { config } = options;
  const store =
    options.store ??
    (await openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      embeddedThread: config.embeddedStoreThread,
    }));
  if (!options.store) app.addHook('onClose', () => store.close());
  if (store.appliedMigrations.length > 0) {
    app.log.info({ migrations: store.appliedMigrations, store: store.kind }, 'database migrated');
  }
  if (options.seed !== false) {
    const seeded = await seedDemoData(store);
    if (seeded.currencies + seeded.markets > 0) app.log.info(seeded, 'demo data seeded');
    // After the catalogue: the fee pages quote its figures.
    const news = await seedNews(store);
    if (news.categories + news.items > 0) app.log.info(news, 'site pages seeded');
  }
  app.decorate('store', store);
  app.decorate('config', config);
}

export default fp(storePlugin, { name: 'store' });
