/**
 * "1234.5" or "1234.50" as "1,234.50"; anything that is not an amount as it came. A leaf, so
 * the activity sentences and every message file can read it without importing each other.
 */
export function formatAmount(value: unknown): string {
  const text = typeof value === 'number' ? value.toFixed(2) : typeof value === 'string' ? value : '';
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return text || '?';
  const whole = match[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${match[1]}${whole}.${(match[3] ?? '').padEnd(2, '0')}`;
}
