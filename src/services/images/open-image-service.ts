import type { Config } from '../../config/schema.js';
import type { EngineContext } from '../../engines/chat/factory.js';
import { IMAGE_ENGINES } from '../../engines/image/registry.js';
import type { FileStore } from '../../files/types.js';
import { createGuardedFetcher } from '../../net/fetcher.js';
import type { Store } from '../../stores/types.js';
import type { Tracer } from '../../telemetry/tracer.js';
import type { SafetyService } from '../safety/safety-service.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import { ImageEngineDirectory, resolveImageDeployments } from './image-directory.js';
import { IMAGE_TASK_KIND, ImageService } from './image-service.js';
import { JobSlots } from './job-slots.js';
import { startTaskSweeper } from './task-sweeper.js';
import { TaskWorkers } from './task-workers.js';

/** Validates the image deployments (a bad one stops start-up); nothing is opened yet. */
export const checkImageDeployments = (config: Config) => resolveImageDeployments(config, IMAGE_ENGINES);

/**
 * The image service and this process's task workers, when an image model is configured. The
 * workers start at once: tasks left by a process that stopped are taken up when their leases end.
 */
export async function openImageService(
  config: Config,
  deps: {
    store: Store;
    files: FileStore;
    safety: SafetyService;
    log: EngineContext['log'];
    configDir: string;
    tracer?: Tracer | undefined;
    /** Where priced tasks' costs are recorded. */
    usage?: Pick<UsageRecorder, 'record'>;
  },
): Promise<{ images: ImageService; close(): Promise<void> } | undefined> {
  const deployments = resolveImageDeployments(config, IMAGE_ENGINES);
  if (deployments.size === 0) return undefined;
  const c = config.images;
  // An image URL an engine answers with on another host is fetched like any URL from outside.
  const outbound = createGuardedFetcher({ allowHosts: config.reader.allow_hosts });
  const engines = new ImageEngineDirectory(deployments, {
    configDir: deps.configDir,
    log: deps.log,
    maxImageBytes: c.max_image_bytes,
    timeoutMs: c.timeout_seconds * 1000,
    outbound,
  });
  await engines.ready();
  const slots = new JobSlots(c.concurrency, c.queue_size);
  let workers: TaskWorkers | undefined;
  const images = new ImageService({
    engines,
    files: deps.files,
    safety: deps.safety,
    slots,
    tasks: deps.store.tasks,
    config: c,
    kick: () => workers?.kick(),
    tracer: deps.tracer,
    usage: deps.usage,
    money: deps.store.money,
  });
  workers = new TaskWorkers({
    tasks: deps.store.tasks,
    slots,
    kinds: [IMAGE_TASK_KIND],
    run: (task, signal) => images.runTask(task, signal),
    failed: (task) => images.taskFailed(task),
    leaseMs: c.lease_seconds * 1000,
    pollMs: c.poll_interval_ms,
    maxAttempts: c.max_attempts,
    log: deps.log,
  });
  workers.start();
  const stopSweeper = startTaskSweeper(
    deps.store.tasks,
    { intervalMs: config.files.sweep_interval_seconds * 1000, keepMs: config.files.ttl * 1000 },
    deps.log,
  );
  return {
    images,
    async close() {
      stopSweeper();
      await workers?.stop();
      await engines.close();
      await outbound.close();
    },
  };
}
