import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { MAIN_ROUTES, visit } from './support/routes.ts';

// axe-core on the main routes with real demo data, in the light and the dark theme (colour
// contrast differs per theme): no serious or critical violation may remain.

const THEMES = ['sunrise', 'sunset'] as const;
const BLOCKING = new Set(['serious', 'critical']);

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>;

function describe(violations: Result['violations']): string {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 8)
        .map((n) => `      ${n.target.join(' ')}\n        ${(n.failureSummary ?? '').replace(/\n\s*/g, ' | ')}`)
        .join('\n');
      const more = v.nodes.length > 8 ? `\n      … and ${v.nodes.length - 8} more` : '';
      return `  [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length} nodes)\n${nodes}${more}`;
    })
    .join('\n');
}

for (const theme of THEMES) {
  test.describe(`theme ${theme}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((name) => localStorage.setItem('theme', name), theme);
    });

    for (const route of MAIN_ROUTES) {
      test(`${route.name} has no serious accessibility violations`, async ({ page }) => {
        const path = await visit(page, route);
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        // Late content (the sidebar blocks, counts) has arrived: visit waits until nothing is aria-busy.
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const blocking = result.violations.filter((v) => BLOCKING.has(v.impact ?? ''));
        // Compare the count, so the failure prints the readable list instead of axe's raw objects.
        expect(blocking.length, `serious/critical axe violations on ${path} (${theme}):\n${describe(blocking)}`).toBe(0);
      });
    }
  });
}
