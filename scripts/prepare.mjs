// `npm install` / `npm ci` in a checkout and `npm pack` run this: it builds dist/.
// `npx gen-platform` in a checkout makes npm link the checkout into its npx cache and run `prepare`
// again (npm_command=exec); the checkout's own install built dist already, so that run skips it.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';

if (process.env.npm_command !== 'exec') {
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = result.status ?? 1;
  // tsc writes files 0644. npm marks a bin executable only when it links it, and npx links a
  // checkout once per path: a checkout cloned again where an earlier one stood got its bin
  // unmarked, and `npx gen-platform` answered "Permission denied".
  if (result.status === 0) {
    const { bin } = JSON.parse(readFileSync('package.json', 'utf8'));
    for (const file of Object.values(bin)) chmodSync(file, 0o755);
  }
}
