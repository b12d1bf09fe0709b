import PDFDocument from 'pdfkit';

/**
 * What the invoice and statement PDFs share: an A4 page in the standard Helvetica (pdfkit carries
 * its metrics, so no font file ships), a table that continues on a new page with its header
 * repeated, a footer on every page, and the number formats. Everything printed is derived from
 * the document's own data (no clock, no random id beyond what its CreationDate fixes), so the
 * same document renders the same bytes.
 */

export type Pdf = PDFKit.PDFDocument;

export const PAGE = { margin: 50, footer: 46 } as const;
export const FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
export const SIZE = { body: 9, small: 7.5, heading: 11, title: 20 } as const;
export const COLOR = { text: '#111111', muted: '#555555', rule: '#bbbbbb', band: '#eeeeee' } as const;

export interface DocumentMeta {
  title: string;
  author: string;
  subject: string;
  /** Fixed from the document's own date so two renders are byte-identical. */
  createdAt: Date;
}

/** A new A4 document whose pages stay in memory until `finish`, so each footer can say "Page N of M". */
export function newDocument(meta: DocumentMeta): Pdf {
  const doc = new PDFDocument({
    size: 'A4',
    bufferPages: true,
    // The footer lives in the bottom margin, so flowing text never runs into it.
    margins: { top: PAGE.margin, left: PAGE.margin, right: PAGE.margin, bottom: PAGE.margin + PAGE.footer },
    info: {
      Title: printable(meta.title),
      Author: printable(meta.author),
      Subject: printable(meta.subject),
      Creator: 'Console',
      Producer: 'Console (PDFKit)',
      CreationDate: meta.createdAt,
      ModDate: meta.createdAt,
    },
    displayTitle: true,
    lang: 'en',
  });
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.text);
  return doc;
}

export const contentLeft = (doc: Pdf) => doc.page.margins.left;
export const contentWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
/** The lowest y the flowing content may reach on a page. */
export const contentBottom = (doc: Pdf) => doc.page.height - doc.page.margins.bottom;

/**
 * Writes the footer on every buffered page (left lines, and "Page N of M" on the right), then
 * ends the document and resolves with its bytes.
 */
export function finish(doc: Pdf, footerLines: string[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    const bottom = doc.page.margins.bottom;
    // Writing inside the margin would otherwise make pdfkit start a new page.
    doc.page.margins.bottom = 0;
    const left = contentLeft(doc);
    const width = contentWidth(doc);
    let y = doc.page.height - PAGE.margin - PAGE.footer + 14;
    doc
      .moveTo(left, y - 6)
      .lineTo(left + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.muted);
    const pageLabel = `Page ${index - range.start + 1} of ${range.count}`;
    const pageWidth = doc.widthOfString(pageLabel) + 2;
    doc.text(pageLabel, left + width - pageWidth, y, { width: pageWidth, align: 'right', lineBreak: false });
    for (const line of footerLines) {
      doc.text(fitLine(doc, printable(line), width - pageWidth - 12), left, y, { lineBreak: false });
      y += SIZE.small + 3;
    }
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** The text cut to `width` points with an ellipsis, so a one-line footer never wraps. */
function fitLine(doc: Pdf, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Starts a new page when `height` more points would not fit on this one; says whether it did. */
export function ensureSpace(doc: Pdf, height: number): boolean {
  if (doc.y + height <= contentBottom(doc)) return false;
  doc.addPage();
  return true;
}

export interface Column {
  header: string;
  /** Points; one column may be `'fill'` to take what the others leave. */
  width: number | 'fill';
  align?: 'left' | 'right';
}

const CELL_PAD_X = 4;
const CELL_PAD_Y = 3;

/**
 * Draws a table from doc.y down, row by row: a row that would cross the page's bottom starts a
 * new page, which repeats the header. A row is as tall as its tallest (wrapped) cell.
 */
export function drawTable(doc: Pdf, columns: Column[], rows: string[][], options: { boldLastRow?: boolean } = {}): void {
  const left = contentLeft(doc);
  const fixed = columns.reduce((sum, column) => sum + (column.width === 'fill' ? 0 : column.width), 0);
  const widths = columns.map((column) => (column.width === 'fill' ? contentWidth(doc) - fixed : column.width));
  const xs = widths.map((_, index) => left + widths.slice(0, index).reduce((sum, width) => sum + width, 0));
  const total = widths.reduce((sum, width) => sum + width, 0);

  const rowHeight = (cells: string[], font: string) => {
    doc.font(font).fontSize(SIZE.body);
    const heights = cells.map((cell, index) => doc.heightOfString(printable(cell), { width: widths[index]! - 2 * CELL_PAD_X }));
    return Math.max(...heights, SIZE.body) + 2 * CELL_PAD_Y;
  };
  const drawRow = (cells: string[], font: string, height: number) => {
    const top = doc.y;
    doc.font(font).fontSize(SIZE.body).fillColor(COLOR.text);
    cells.forEach((cell, index) => {
      doc.text(printable(cell), xs[index]! + CELL_PAD_X, top + CELL_PAD_Y, {
        width: widths[index]! - 2 * CELL_PAD_X,
        align: columns[index]!.align ?? 'left',
      });
    });
    doc.x = left;
    doc.y = top + height;
  };
  const header = () => {
    const cells = columns.map((column) => column.header);
    const height = rowHeight(cells, FONT.bold);
    doc.rect(left, doc.y, total, height).fill(COLOR.band);
    drawRow(cells, FONT.bold, height);
    return height;
  };

  const headerHeight = rowHeight(
    columns.map((column) => column.header),
    FONT.bold,
  );
  // The header never stands alone at the bottom of a page.
  ensureSpace(doc, headerHeight + (rows[0] ? rowHeight(rows[0], FONT.regular) : 0));
  header();
  rows.forEach((cells, index) => {
    const font = options.boldLastRow && index === rows.length - 1 ? FONT.bold : FONT.regular;
    const height = rowHeight(cells, font);
    if (ensureSpace(doc, height)) header();
    drawRow(cells, font, height);
    doc
      .moveTo(left, doc.y)
      .lineTo(left + total, doc.y)
      .lineWidth(0.4)
      .strokeColor(COLOR.rule)
      .stroke();
  });
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.text);
}

/** Label and value pairs, the labels in a column of their own, from (x, doc.y). */
export function drawPairs(
  doc: Pdf,
  pairs: [string, string][],
  x: number,
  labelWidth: number,
  valueWidth: number,
  align: 'left' | 'right' = 'left',
) {
  for (const [label, value] of pairs) {
    const top = doc.y;
    doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.muted);
    doc.text(printable(label), x, top, { width: labelWidth });
    const labelBottom = doc.y;
    doc.font(FONT.bold).fillColor(COLOR.text);
    doc.text(printable(value), x + labelWidth, top, { width: valueWidth, align });
    doc.y = Math.max(labelBottom, doc.y) + 1.5;
  }
  doc.font(FONT.regular).fillColor(COLOR.text);
}

/** A small uppercase heading with a rule under it. */
export function heading(doc: Pdf, text: string, x = contentLeft(doc), width = contentWidth(doc)) {
  doc.font(FONT.bold).fontSize(SIZE.heading).fillColor(COLOR.text);
  doc.text(printable(text), x, doc.y, { width });
  doc.font(FONT.regular).fontSize(SIZE.body);
  doc.y += 3;
}

/** A muted line where a table has no rows ("No lines."), then `gap` points of space. */
export function emptyNote(doc: Pdf, text: string, gap: number) {
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.muted).text(printable(text), contentLeft(doc), doc.y);
  doc.fillColor(COLOR.text);
  doc.y += gap;
}

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
