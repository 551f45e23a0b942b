import type { Config } from '../../config/schema.js';
import type { ImageEngineContext, ImageEngineFactory } from '../../engines/image/factory.js';
import { createImagePool } from '../../engines/image/pool.js';
import type { ImageEngine } from '../../engines/image/types.js';
import { isImageModelCode } from '../../models/catalogue.js';
import { validateDeployment } from '../chat/engine-directory.js';

type ImageDeployment = ReturnType<typeof validateDeployment<ImageEngineFactory>>;

/** The configured image model codes with their validated deployments (a bad one stops start-up). */
export function resolveImageDeployments(
  config: Config,
  factories: Readonly<Record<string, ImageEngineFactory>>,
): Map<string, ImageDeployment[]> {
  const out = new Map<string, ImageDeployment[]>();
  for (const [code, { deployments }] of Object.entries(config.models)) {
    if (!isImageModelCode(code)) continue;
    out.set(
      code,
      deployments.map((d, i) => validateDeployment(d, `models.${code}.deployments[${i}]`, factories)),
    );
  }
  return out;
}

/** Image model code → engine (a pool when there are several deployments), made on first use. */
export class ImageEngineDirectory {
  private readonly engines = new Map<string, Promise<ImageEngine>>();

  constructor(
    private readonly deployments: Map<string, ImageDeployment[]>,
    private readonly context: ImageEngineContext,
  ) {}

  has(code: string): boolean {
    return this.deployments.has(code);
  }

  get(code: string): Promise<ImageEngine> | undefined {
    const list = this.deployments.get(code);
    if (!list) return undefined;
    let pending = this.engines.get(code);
    if (!pending) {
      pending = Promise.all(list.map((d) => d.factory.create(d.options, this.context))).then((all) =>
        createImagePool(all),
      );
      this.engines.set(code, pending);
      pending.catch(() => this.engines.delete(code));
    }
    return pending;
  }

  /** Starts every engine now, so that a bad deployment (a missing workflow file) stops start-up. */
  async ready(): Promise<void> {
    await Promise.all([...this.deployments.keys()].map((code) => this.get(code)));
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled([...this.engines.values()]);
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }
}
