/**
 * robots.txt rules for one user agent: the group naming it, else the `*` group. The longest
 * matching Allow/Disallow prefix wins (RFC 9309), with `*` wildcards and a `$` end anchor.
 */
export interface RobotsRules {
  allowed(path: string): boolean;
}

interface Rule {
  allow: boolean;
  pattern: RegExp;
  length: number;
}

const toRegExp = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+?^{}()|[\]\\]/g, '\\$&')
      .replaceAll('*', '.*')
      .replace(/\\\$$|\$$/, '$')}`,
  );

export function parseRobots(text: string, agent: string): RobotsRules {
  const groups = new Map<string, Rule[]>();
  let current: string[] = [];
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
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
      for (const name of current)
        groups.get(name)?.push({ allow: key === 'allow', pattern: toRegExp(value), length: value.length });
    }
  }
  const own = [...groups.entries()].find(([name]) => name !== '*' && agent.toLowerCase().includes(name))?.[1];
  const rules = own ?? groups.get('*') ?? [];
  return {
    allowed(path: string): boolean {
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.pattern.test(path)) continue;
        if (!best || rule.length > best.length || (rule.length === best.length && rule.allow)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}
