/** A small Dockerfile checker of our own: instructions, stages, JSON forms (no Docker needed). */
const INSTRUCTIONS = new Set([
  'FROM',
  'RUN',
  'CMD',
  'LABEL',
  'EXPOSE',
  'ENV',
  'ADD',
  'COPY',
  'ENTRYPOINT',
  'VOLUME',
  'USER',
  'WORKDIR',
  'ARG',
  'ONBUILD',
  'STOPSIGNAL',
  'HEALTHCHECK',
  'SHELL',
]);

export interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

export interface Stage {
  name: string | undefined;
  base: string;
  instructions: Instruction[];
}

/** Parses into instructions (continuation lines joined, comments dropped); throws on a syntax error. */
export function parseDockerfile(text: string): { instructions: Instruction[]; stages: Stage[] } {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    while (line.endsWith('\\')) {
      i++;
      if (i >= lines.length) throw new Error(`line ${start + 1}: continuation at the end of the file`);
      const next = lines[i]!.trim();
      if (next.startsWith('#')) continue;
      line = `${line.slice(0, -1).trimEnd()} ${next}`;
    }
    const m = /^([A-Za-z]+)\s+(.+)$/.exec(line);
    if (!m) throw new Error(`line ${start + 1}: not an instruction: ${line}`);
    const keyword = m[1]!.toUpperCase();
    if (!INSTRUCTIONS.has(keyword)) throw new Error(`line ${start + 1}: unknown instruction ${m[1]}`);
    const args = m[2]!;
    if (['CMD', 'ENTRYPOINT', 'VOLUME', 'SHELL'].includes(keyword) && args.startsWith('[')) {
      const parsed: unknown = JSON.parse(args);
      if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) {
        throw new Error(`line ${start + 1}: ${keyword} JSON form must be an array of strings`);
      }
    }
    instructions.push({ line: start + 1, keyword, args });
  }
  const first = instructions.find((x) => x.keyword !== 'ARG');
  if (first?.keyword !== 'FROM') throw new Error('the first instruction (after ARGs) must be FROM');
  const stages: Stage[] = [];
  for (const x of instructions) {
    if (x.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(x.args);
      if (!m) throw new Error(`line ${x.line}: FROM image [AS name]`);
      stages.push({ base: m[1]!, name: m[2], instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(x);
    }
  }
  for (const [i, stage] of stages.entries()) {
    for (const x of stage.instructions) {
      const from = /--from=(\S+)/.exec(x.args)?.[1];
      if (x.keyword === 'COPY' && from && !stages.slice(0, i).some((s) => s.name === from)) {
        throw new Error(`line ${x.line}: COPY --from=${from} names no earlier stage`);
      }
    }
  }
  return { instructions, stages };
}

/** The sources of the COPY instructions that come from the build context (not another stage). */
export function contextSources(stages: Stage[]): string[] {
  return stages.flatMap((s) =>
    s.instructions
      .filter((x) => (x.keyword === 'COPY' || x.keyword === 'ADD') && !x.args.includes('--from='))
      .flatMap((x) => {
        const parts = x.args.split(/\s+/).filter((p) => !p.startsWith('--'));
        return parts.slice(0, -1);
      }),
  );
}
