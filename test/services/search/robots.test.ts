import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../src/services/search/robots.js';
import { compilePattern } from '../../../src/services/search/robots-pattern.js';

const ROBOTS = `
# comments are ignored
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$

User-agent: gen-platform-indexer
Disallow: /not-for-us
`;

describe('robots.txt', () => {
  it('applies the * group with the longest matching rule winning', () => {
    const rules = parseRobots(ROBOTS, 'some-bot/1.0');
    expect(rules.allowed('/')).toBe(true);
    expect(rules.allowed('/private/x')).toBe(false);
    expect(rules.allowed('/private/open/page')).toBe(true);
    expect(rules.allowed('/files/report.pdf')).toBe(false);
    expect(rules.allowed('/files/report.pdf?x=1')).toBe(true);
  });

  it('prefers the group that names the agent', () => {
    const rules = parseRobots(ROBOTS, 'gen-platform-indexer/0.1');
    expect(rules.allowed('/private/x')).toBe(true);
    expect(rules.allowed('/not-for-us/page')).toBe(false);
  });

  it('allows everything when there are no rules', () => {
    expect(parseRobots('', 'x').allowed('/anything')).toBe(true);
    expect(parseRobots('User-agent: *\nDisallow:\n', 'x').allowed('/anything')).toBe(true);
  });
});

/** Reference matcher: dynamic programming over (pattern position, path position), O(n·m), no backtracking. */
function referenceMatch(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : pattern;
  // reach[j]: the pattern's first i characters can match the path's first j characters.
  let reach = new Array<boolean>(path.length + 1).fill(false);
  reach[0] = true;
  for (const c of p) {
    const next = new Array<boolean>(path.length + 1).fill(false);
    for (let j = 0; j <= path.length; j++) {
      if (c === '*') next[j] = reach[j]! || (j > 0 && next[j - 1]!);
      else next[j] = j > 0 && reach[j - 1]! && path[j - 1] === c;
    }
    reach = next;
  }
  return anchored ? reach[path.length]! : reach.some(Boolean);
}

describe('robots.txt patterns', () => {
  it('matches stars and the end anchor', () => {
    const cases: [string, string, boolean][] = [
      ['/fish', '/fish.html', true],
      ['/fish', '/Fish', false],
      ['/fish*', '/fishheads/yummy.html', true],
      ['/*.php', '/folder/filename.php?parameters', true],
      ['/*.php$', '/filename.php', true],
      ['/*.php$', '/filename.php?parameters', false],
      ['/*.php$', '/filename.php5', false],
      ['/fish*.php', '/fishheads/catfish.php?parameters', true],
      ['/fish*.php', '/Fish.PHP', false],
      ['/a$', '/a', true],
      ['/a$', '/ab', false],
      ['/**b', '/xxb', true],
      ['/a*b*a$', '/aba', true],
      ['/a*ab$', '/ab', false],
      ['/$x', '/$x/y', true],
    ];
    for (const [pattern, path, expected] of cases) {
      expect([pattern, path, compilePattern(pattern).matches(path)]).toEqual([pattern, path, expected]);
    }
  });

  it('agrees with a reference matcher on random patterns and paths', () => {
    const piece = fc.constantFrom('a', 'b', '/', '*', '.', '$');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 10 }),
        fc.array(fc.constantFrom('a', 'b', '/', '.', '$'), { maxLength: 14 }),
        (p, s) => {
          const pattern = `/${p.join('')}`;
          const path = `/${s.join('')}`;
          expect(compilePattern(pattern).matches(path)).toBe(referenceMatch(pattern, path));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers at once for patterns with many wildcards against long paths', () => {
    // A backtracking regular expression takes minutes on these; the matcher reads each piece once.
    const path = `/${'a'.repeat(20_000)}`;
    const rules = parseRobots(
      [
        'User-agent: *',
        `Disallow: /${'*a'.repeat(200)}*b`,
        `Disallow: /${'a*'.repeat(200)}$b`,
        `Allow: /${'*a'.repeat(2_000)}$`,
        `Disallow: ${'*'.repeat(10_000)}x$`,
      ].join('\n'),
      'bot',
    );
    expect(rules.allowed(path)).toBe(true); // only the Allow matches (20,000 a's hold its 2,000)
    expect(rules.allowed(`${path}x`)).toBe(false); // the 10,000-star rule matches and is the longest
    expect(compilePattern(`/${'*a'.repeat(5_000)}*b`).matches(`/${'a'.repeat(50_000)}`)).toBe(false);
    expect(compilePattern(`/${'*a'.repeat(5_000)}*b`).matches(`/${'a'.repeat(50_000)}b`)).toBe(true);
  });

  it('reads at most 512 KB of a robots.txt', () => {
    const padding = `# ${'x'.repeat(1000)}\n`.repeat(600);
    const rules = parseRobots(`User-agent: *\n${padding}Disallow: /late\n`, 'bot');
    expect(rules.allowed('/late')).toBe(true);
  });
});
