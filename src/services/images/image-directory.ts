import { configuredDeployments, type Deployment, validateDeployment } from '../../config/deployment.js';
import type { Config } from '../../config/schema.js';
import { EngineCache } from '../../engines/engine-cache.js';
import type { ImageEngineContext, ImageEngineFactory } from '../../engines/image/factory.js';
import { createImagePool } from '../../engines/image/pool.js';
import type { ImageEngine } from '../../engines/image/types.js';
import { isImageModelCode } from '../../models/catalogue.js';

type ImageDeployment = Deployment<ImageEngineFactory>;

/** The configured image model codes with their validated deployments (a bad one stops start-up). */
export function resolveImageDeployments(
  config: Config,
  factories: Readonly<Record<string, ImageEngineFactory>>,
): Map<string, ImageDeployment[]> {
  return configuredDeployments(config, isImageModelCode, (raw, where) => validateDeployment(raw, where, factories));
}

/** Image model code → engine (a pool when there are several deployments), made on first use. */
export class ImageEngineDirectory {
  private readonly engines = new EngineCache<ImageEngine>();

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
    return this.engines.get(code, async () =>
      createImagePool(await Promise.all(list.map((d) => d.factory.create(d.options, this.context)))),
    );
  }

  /** Starts every engine now, so that a bad deployment (a missing workflow file) stops start-up. */
  async ready(): Promise<void> {
    await Promise.all([...this.deployments.keys()].map((code) => this.get(code)));
  }

  close(): Promise<void> {
    return this.engines.close();
  }
}
