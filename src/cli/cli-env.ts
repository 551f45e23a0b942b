/** What a command may touch of its process: passed in, so that commands are testable. */
export interface CliEnv {
  cwd: string;
  vars: Readonly<Record<string, string | undefined>>;
  out(line: string): void;
  err(line: string): void;
  /** Rewrites the current terminal line (progress bars); absent or undefined when stderr is not a terminal. */
  status?: ((text: string) => void) | undefined;
}
