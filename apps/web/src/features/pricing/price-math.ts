import { priceInputSchema } from '@console/domain';

const SCALE = 10_000n;

/** A four-decimal price string ("0.3000") as ten-thousandths, exactly. */
function toUnits(price: string): bigint {
  const [whole = '0', fraction = ''] = price.split('.');
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(4, '0').slice(0, 4));
}

function fromUnits(units: bigint): string {
  const digits = units.toString().padStart(5, '0');
  return `${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/**
 * What a typed price would give per unit, as the server reckons it: the children pay the
 * greater of the price and the own one, the margin is the difference. Null when the text is
 * not a price (the form says why) or the own price is not known.
 */
export function previewMargin(typed: string, own: string | null): { margin: string; below: boolean } | null {
  const parsed = priceInputSchema.safeParse(typed);
  if (!parsed.success || own === null) return null;
  const [price, mine] = [toUnits(parsed.data), toUnits(own)];
  return { margin: fromUnits(price > mine ? price - mine : 0n), below: price < mine };
}
