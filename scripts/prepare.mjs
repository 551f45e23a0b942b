// `npm install` / `npm ci` in a checkout and `npm pack` run this: it builds dist/.
// `npx gen-platform` in a checkout makes npm link the checkout into its npx cache and run `prepare`
// again (npm_command=exec); the checkout's own install built dist already, so that run skips it.
import { spawnSync } from 'node:child_process';

if (process.env.npm_command !== 'exec') {
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = result.status ?? 1;
}
