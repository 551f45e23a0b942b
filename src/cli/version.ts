import { packageRoot } from '../util/package-root.js';

/** The version of the installed package (`gen-platform --version`). */
export function packageVersion(): string {
  return packageRoot().version;
}
