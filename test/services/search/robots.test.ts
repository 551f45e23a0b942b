import { describe, expect, it } from 'vitest';
import { parseRobots } from '../../../src/services/search/robots.js';

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
