import { compilePattern, type PathPattern } from './robots-pattern.js';

/**
 * robots.txt rules for one user agent: the group naming it, else the `*` group. The longest
 * matching Allow/Disallow prefix wins (RFC 9309), with `*` wildcards and a `$` end anchor.
 */
export interface RobotsRules {
  allowed(path: string): boolean;
}

interface Rule {
  allow: boolean;
  pattern: PathPattern;
}

/** RFC 9309 asks crawlers to read at least 500 KiB; more than that is not read. */
const MAX_ROBOTS_CHARS = 512_000;

export function parseRobots(text: string, agent: string): RobotsRules {
  const groups = new Map<string, Rule[]>();
  let current: string[] = [];
  let lastWasAgent = false;
  for (const raw of text.slice(0, MAX_ROBOTS_CHARS).split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, field, value] = m as unknown as [string, string, string];
    const key = field.toLowerCase();
    if (key === 'user-agent') {
      if (!lastWasAgent) current = [];
      current.push(value.toLowerCase());
      if (!groups.has(value.toLowerCase())) groups.set(value.toLowerCase(), []);
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if ((key === 'allow' || key === 'disallow') && value !== '') {
      const pattern = compilePattern(value);
      for (const name of current) groups.get(name)?.push({ allow: key === 'allow', pattern });
    }
  }
  const own = [...groups.entries()].find(([name]) => name !== '*' && agent.toLowerCase().includes(name))?.[1];
  const rules = own ?? groups.get('*') ?? [];
  return {
    allowed(path: string): boolean {
      let best: Rule | undefined;
      for (const rule of rules) {
        const { length } = rule.pattern;
        if (best && (length < best.pattern.length || (length === best.pattern.length && !rule.allow))) continue;
        if (rule.pattern.matches(path)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}
