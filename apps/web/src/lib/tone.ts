import type { Tone } from '@console/domain';

/** The bar colours of the domain's tones (resource bars, rates, health scores). */
export const TONE_BAR: Record<Tone, string> = {
  green: 'bg-emerald-500',
  amber: 'bg-amber-500',
  red: 'bg-red-500',
};
