import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core in the browser journeys: its source is evaluated in the page (through the
 * DevTools protocol, which the console's Content Security Policy does not govern), run over
 * the whole document, and what it finds of moderate, serious or critical impact is returned.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The impacts that fail a journey: what stops or hinders someone from using the page, moderate
 * included (a page's level-one heading, heading order, landmarks, a way past repeated blocks).
 */
const FAILING: readonly ImpactValue[] = ['moderate', 'serious', 'critical'];

/** WCAG 2.x A and AA and axe's best practices (landmarks, headings, nested interactive elements). */
const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  resultTypes: ['violations'],
};

export interface AxeViolation {
  rule: string;
  impact: ImpactValue;
  help: string;
  /** Each offending element: its selector and what is wrong with it. */
  nodes: { target: string; summary: string }[];
}

/** The moderate, serious and critical violations axe finds on the page as it is now (or in the part `include` selects). */
export async function axeViolations(page: Page, options: { include?: string } = {}): Promise<AxeViolation[]> {
  // Colours are measured once whatever fades or slides in has arrived (spinners and
  // skeletons pulse for ever and are not waited for).
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  // A page is judged once it has rendered, not on the loading screen before it (which has
  // neither its level-one heading nor its main landmark yet): a page that never gets them
  // is still judged, after the wait.
  await page
    .waitForFunction(() => document.querySelector('h1') !== null && document.querySelector('main, [role="main"]') !== null, undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    ([include, runOptions]) =>
      (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }).axe.run(
        include ? { include: [include] } : document,
        runOptions,
      ),
    [options.include ?? null, RUN_OPTIONS] as const,
  );
  return results.violations
    .filter((violation) => violation.impact && FAILING.includes(violation.impact))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact!,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({
        target: node.target.map(String).join(' > '),
        summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
      })),
    }));
}

/** One line a violation, then each element with what is wrong, for a failure message. */
export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${where}: [${violation.impact}] ${violation.rule} — ${violation.help}\n` +
        violation.nodes
          .slice(0, 5)
          .map((node) => `    ${node.target}: ${node.summary}`)
          .join('\n') +
        (violation.nodes.length > 5 ? `\n    … and ${violation.nodes.length - 5} more` : ''),
    )
    .join('\n');
}

/** Fails with every serious or critical violation on the page, named by rule, element and page. */
export async function expectAccessible(page: Page, label?: string): Promise<void> {
  const violations = await axeViolations(page);
  const where = label ?? new URL(page.url()).pathname;
  expect(violations, describeViolations(where, violations)).toEqual([]);
}
