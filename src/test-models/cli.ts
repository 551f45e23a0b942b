#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exampleConfigYaml } from './example-config.js';
import { writeTestModels } from './write-test-models.js';

/** `node dist/src/test-models/cli.js DIR`: writes the test models and DIR/gen-platform.yaml. */
async function main(argv: string[]): Promise<void> {
  const dir = argv[0];
  if (dir === undefined || dir.startsWith('-')) {
    process.stderr.write('usage: models:test -- DIR\n');
    process.exitCode = 2;
    return;
  }
  const paths = await writeTestModels(dir);
  const configPath = join(dir, 'gen-platform.yaml');
  await writeFile(configPath, exampleConfigYaml(paths.programmed));
  process.stdout.write(
    `wrote ${paths.random}\nwrote ${paths.programmed}\nwrote ${paths.thinking}\nwrote ${configPath}\n` +
      `try: npx gen-platform serve --config ${configPath}\n`,
  );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
