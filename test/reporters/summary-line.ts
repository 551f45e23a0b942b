import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, which CI reads as the
 * run's count whatever the runner. Above it, the files that never finished (a worker that died
 * takes its file with it, and vitest's own summary does not name it).
 */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const unfinished: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      const state = module.state();
      if (state === 'failed' && [...module.children.allTests()].length === 0) counts.failed++;
      if (state === 'queued' || state === 'pending') {
        unfinished.push(module.moduleId);
        counts.failed++;
      }
    }
    for (const file of unfinished) process.stdout.write(`\nnot finished: ${file}`);
    process.stdout.write(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
