import PDFDocument from 'pdfkit';
import { printable } from './format.ts';
import { COLOR, FONT, PAGE, SIZE } from './style.ts';

/**
 * What the invoice and statement PDFs share: an A4 page in the standard Helvetica (pdfkit carries
 * its metrics, so no font file ships), a table that continues on a new page with its header
 * repeated, and a footer on every page (its look in style.ts, the number formats in format.ts).
 * Everything printed is derived from the document's own data (no clock, no random id beyond what
 * its CreationDate fixes), so the same document renders the same bytes.
 */

export type Pdf = PDFKit.PDFDocument;

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
