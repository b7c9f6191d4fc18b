// The products area's Fastify plugin (token sales, cloud mining, defi staking; docs/products.md): builds the
// service the routes call (app.products) and the back office's (app.products.admin), creates the demo
// products on a first start (with DEMO=on), and runs the daily accrual job, stopped before the runner closes.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startAccrualJob } from './accrual-job.ts';
import type { AccrualJob, AccrualRun } from './accrual-job.ts';
import { ProductsAdmin } from './admin.ts';
import { applyDemoProducts } from './demo.ts';
import { ProductsService } from './service.ts';

export interface ProductsArea {
  service: ProductsService;
  admin: ProductsAdmin;
  /** Runs the accrual job now (the back office's button; tests). */
  accrueNow(): Promise<AccrualRun>;
}

declare module 'fastify' {
  interface FastifyInstance {
    products: ProductsArea;
  }
}

export interface ProductsPluginOptions {
  /** Create the demo products on a first start (DEMO=on with demo data, app.ts). */
  demo?: boolean;
}

async function productsPlugin(app: FastifyInstance, options: ProductsPluginOptions): Promise<void> {
  let job: AccrualJob | undefined;
  const accrueNow = async (): Promise<AccrualRun> => {
    if (job === undefined) throw new Error('the accrual job is not running');
    return job.runNow();
  };
  const service = new ProductsService(app.runner, app.store);
  const admin = new ProductsAdmin(app.runner, app.store, accrueNow);
  app.decorate('products', { service, admin, accrueNow });
  app.addHook('onReady', async () => {
    if (options.demo === true) {
      const opened = await applyDemoProducts(app.store, app.runner);
      if (opened > 0) await app.marketData.catalog.refresh(0);
    }
    job = startAccrualJob({
      runner: app.runner,
      onError: (error) => app.log.error({ err: error }, 'products accrual failed'),
    });
  });
  app.addHook('preClose', async () => job?.stop());
}

export const productsAreaPlugin = fp(productsPlugin, {
  name: 'products',
  dependencies: ['engine-runner', 'market-data'],
});
