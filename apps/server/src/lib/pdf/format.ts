/**
 * Text and numbers as the PDFs print them: exact decimals with thousands separators, months and
 * days in fixed English (never the machine's locale), and only characters the standard fonts can
 * draw, so the same document renders the same bytes anywhere.
 */

/** "1234567.5" → "1,234,567.50": an exact decimal string with thousands separators and at least `decimals` decimals. */
export function formatDecimal(value: string, decimals = 2): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, whole, fraction = ''] = match;
  const grouped = BigInt(whole!)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const digits = fraction.length >= decimals ? fraction : fraction.padEnd(decimals, '0');
  const zero = /^0*$/.test(whole! + digits);
  return `${sign && !zero ? '-' : ''}${grouped}${digits ? `.${digits}` : ''}`;
}

/** An amount of money with its currency: "1,234.50 EUR". */
export const formatMoney = (value: string, currency: string) => `${formatDecimal(value)} ${currency}`;

/** A tax rate as stored ("20.000") as printed ("20 %", "5.5 %"). */
export function formatPercent(rate: string): string {
  const trimmed = rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
  return `${trimmed} %`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2025-03" → "March 2025" (fixed English names: the bytes do not follow the machine's locale). */
export function formatMonth(month: string): string {
  const [year, number] = month.split('-');
  return `${MONTHS[Number(number) - 1] ?? number} ${year}`;
}

/** The UTC day of an instant or a day: "2025-03-01T10:00:00.000Z" → "2025-03-01". */
export function formatDay(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().slice(0, 10);
}

/** A 64-character verification code in groups of 8, so it can be read out and compared. */
export const groupCode = (code: string) => code.match(/.{1,8}/g)?.join(' ') ?? code;

// Code points above Latin-1 that the standard fonts' WinAnsi encoding still holds.
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e,
  0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);
// Letters that do not decompose into a Latin-1 base and a mark.
const LOOKALIKE: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  ı: 'i',
  Ħ: 'H',
  ħ: 'h',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
};

const encodable = (char: string) => {
  const code = char.codePointAt(0)!;
  if (code === 0x0a) return true;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return false;
  return code < 0x100 || WIN_ANSI_EXTRA.has(code);
};

/**
 * Text the standard fonts can draw. They encode WinAnsi only, and pdfkit would write any other
 * character as garbage: accented letters outside it lose their accent ("ą" → "a"), spaces of
 * every kind become a space, and what is left becomes "?". Names stay readable either way.
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC').replace(/\r\n?/g, '\n')) {
    if (encodable(char)) out += char;
    else if (/\s/u.test(char)) out += ' ';
    else if (LOOKALIKE[char]) out += LOOKALIKE[char];
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      out += base && [...base].every(encodable) ? base : '?';
    }
  }
  return out;
}
