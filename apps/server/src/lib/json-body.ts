import type { FastifyBodyParser, FastifyInstance } from 'fastify';

/** A decimal's digits without leading or trailing zeros and the power of ten of its last digit; zero is `{ digits: '' }`. */
function decimalOf(text: string): { negative: boolean; digits: string; exponent: number } | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const all = match[2]! + (match[3] ?? '');
  const trimmed = all.replace(/^0+/, '');
  const digits = trimmed.replace(/0+$/, '');
  const exponent = Number(match[4] ?? '0') - (match[3]?.length ?? 0) + (trimmed.length - digits.length);
  return digits === '' ? { negative: false, digits: '', exponent: 0 } : { negative: match[1] === '-', digits, exponent };
}

/**
 * Whether a JSON number's text states exactly the value JavaScript read it as: `0.1`, `1.50`
 * and `1e-7` do; `1.00000000000000001` (read as 1) and `1e400` (Infinity) do not.
 */
export function isExactNumber(source: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const written = decimalOf(source);
  const read = decimalOf(String(value));
  return !!written && !!read && written.negative === read.negative && written.digits === read.digits && written.exponent === read.exponent;
}

/** Digits enough that a number's text may not survive being read as a float, or an exponent. */
const MAYBE_INEXACT = /\d[.\d]{15}|\d[eE]/;

/**
 * A number JSON.parse would round (more digits than a float holds) stays the text it was
 * sent as, so a schema refuses it as it refuses that text in a string, instead of taking a
 * value nobody sent: units `1.00000000000000001` are more than four decimal places, not 1.
 * Only bodies whose text could hold such a number are read a second time.
 */
export function keepInexactNumbersAsText(app: FastifyInstance): void {
  const standard = app.getDefaultJsonParser('error', 'error') as FastifyBodyParser<string>;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = String(raw);
    standard(request, body, (error, parsed) => {
      if (error || !MAYBE_INEXACT.test(body)) return done(error, parsed);
      const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
      done(
        null,
        JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
          typeof value === 'number' && context?.source !== undefined && !isExactNumber(context.source, value) ? context.source : value,
        ),
      );
    });
  });
}
