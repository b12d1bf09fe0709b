import type { Tone } from '@console/domain';

/** The bar colours of the dashboard's tones. */
export const TONE_BAR: Record<Tone, string> = {
  green: 'bg-emerald-500',
  amber: 'bg-amber-500',
  red: 'bg-red-500',
};

/** A percentage for display: one decimal at most, or "–" when there is none. */
export function formatPercent(value: number | null): string {
  return value === null ? '–' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
}

/** A signed change: "+12.5%", "-3%". */
export function formatChange(value: number): string {
  return `${value > 0 ? '+' : ''}${formatPercent(value)}`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
