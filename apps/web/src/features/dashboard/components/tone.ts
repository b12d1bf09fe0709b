export { TONE_BAR } from '@/lib/tone';

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
