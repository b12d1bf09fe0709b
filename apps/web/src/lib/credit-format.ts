import { CREDITS } from '@console/domain';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * An exact decimal string ("12345.50") with thousands separators ("12,345.50"), by string
 * manipulation only: the amount never passes through a float. Anything else is shown as it is.
 */
export function formatDecimal(amount: string): string {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return amount;
  const [, sign, whole, fraction] = match;
  const grouped = whole!.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = sign === '-' && /[1-9]/.test(`${whole}${fraction ?? ''}`);
  return `${negative ? '-' : ''}${grouped}.${(fraction ?? '').padEnd(2, '0')}`;
}

/** An amount as a number with the word credits: "12,345.50 credits". */
export function formatCredits(amount: string): string {
  return `${formatDecimal(amount)} credits`;
}

/** An exact decimal string as hundredths, exactly; null when it is not one. */
function toCents(amount: string): bigint | null {
  const match = DECIMAL.exec(amount.trim());
  if (!match) return null;
  const [, sign, whole, fraction] = match;
  const cents = BigInt(whole!) * 100n + BigInt((fraction ?? '').padEnd(2, '0').slice(0, 2));
  return sign === '-' ? -cents : cents;
}

/** Hundredths as an exact decimal string with two decimals: -120050n → "-1200.50". */
function fromCents(cents: bigint): string {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * What is left of a balance after an amount leaves it ("1700.00" − "500.00" → "1200.00"),
 * exactly, in hundredths: never through a float. Null when either is not a decimal string.
 */
export function subtractCredits(balance: string, amount: string): string | null {
  const [from, taken] = [toCents(balance), toCents(amount)];
  return from === null || taken === null ? null : fromCents(from - taken);
}

/**
 * Whether a balance is below the organization's low-balance threshold (both exact decimal
 * strings; CREDITS.lowBalanceThreshold when the organization's is not known).
 */
export function isLowBalance(balance: string, threshold: string = String(CREDITS.lowBalanceThreshold)): boolean {
  const [value, limit] = [toCents(balance), toCents(threshold)];
  return value !== null && limit !== null && value < limit;
}

/** Whether a signed decimal string is below zero. */
export function isNegative(amount: string): boolean {
  return /^\s*-/.test(amount) && /[1-9]/.test(amount);
}

/** The colour of an amount: red below zero, green otherwise. */
export function amountClass(amount: string): string {
  return isNegative(amount) ? 'text-red-600 dark:text-red-400' : 'text-green-700 dark:text-green-400';
}
