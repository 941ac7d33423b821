import { createRequire } from 'node:module';
import type { AxeResults, Result } from 'axe-core';
import { expect, type Page } from '@playwright/test';

/**
 * Accessibility checks with axe-core itself (not @axe-core/playwright, whose releases want Node 22): the
 * engine's script is injected into the page and run there. The console's CSP refuses inline scripts, so a
 * test that checks runs with `test.use({ bypassCSP: true })`. Only serious and critical findings fail a
 * test; what remains is printed so it is seen.
 */
const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const describe = (v: Result) =>
  `${v.impact} ${v.id}: ${v.help}\n${v.nodes
    .slice(0, 5)
    .map((n) => `    ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
    .join('\n')}`;

/** Runs axe-core on the page as it is now (WCAG 2.1 A and AA rules and best practices). */
export async function axeViolations(page: Page): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(c: Document, o: object): Promise<AxeResults> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  );
  return results.violations;
}

/** Fails on any serious or critical violation, naming the rule and the elements. */
export async function expectNoSeriousViolations(page: Page, screen: string) {
  const violations = await axeViolations(page);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const minor = violations.filter((v) => !serious.includes(v));
  if (minor.length) console.log(`[axe] ${screen}: ${minor.map((v) => `${v.impact} ${v.id}`).join(', ')}`);
  expect.soft(serious.map(describe), `${screen}: serious or critical accessibility violations`).toEqual([]);
}
