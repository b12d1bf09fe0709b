import { INVOICE_STATE_LABELS, type InvoiceDetail, type InvoiceParty, PAYMENT_METHOD_LABELS } from '@console/domain';
import type { Pdf } from './document.ts';
import { contentLeft, contentWidth, drawPairs, drawTable, emptyNote, ensureSpace, finish, heading, newDocument } from './document.ts';
import { formatDay, formatDecimal, formatMoney, formatMonth, formatPercent, groupCode, printable } from './format.ts';
import { COLOR, FONT, SIZE } from './style.ts';

/**
 * An issued invoice or credit note as a PDF: what it is and when it is due, who sells to whom
 * (the parties as frozen at issue), every line, the totals with the tax and what was paid, the
 * seller's note, and in each page's footer the buyer's statement verification code, which the
 * buyer can check against its own ledger. The PDF's dates come from the invoice, so the same
 * invoice always renders the same bytes.
 */
export async function renderInvoicePdf(invoice: InvoiceDetail): Promise<Buffer> {
  const title = invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  const doc = newDocument({
    title: `${title} ${invoice.number}`,
    author: invoice.seller_details.legal_name,
    subject: `${title} ${invoice.number} to ${invoice.buyer_details.legal_name}, ${formatMonth(invoice.period)}`,
    createdAt: new Date(invoice.issued_at),
  });

  drawTop(doc, invoice, title);
  drawParties(doc, invoice.seller_details, invoice.buyer_details);
  drawLines(doc, invoice);
  drawTotals(doc, invoice);
  drawPayments(doc, invoice);
  drawVoid(doc, invoice);
  drawNote(doc, invoice.note);

  // The buyer's statement for the period carries the same code: both can be checked against its ledger.
  const code = invoice.verification_code
    ? `Statement verification code: ${groupCode(invoice.verification_code)}`
    : "Statement verification code: none (the buyer's ledger had no entries)";
  return finish(doc, [`${invoice.seller_details.legal_name} · ${title} ${invoice.number}`, code]);
}

function drawTop(doc: Pdf, invoice: InvoiceDetail, title: string) {
  const left = contentLeft(doc);
  const width = contentWidth(doc);
  const top = doc.y;

  doc.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.text).text(title, left, top, { width: 250 });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.heading)
    .text(printable(invoice.number), left, doc.y + 2, { width: 250 });
  const titleBottom = doc.y;

  const pairsWidth = 220;
  doc.y = top + 2;
  drawPairs(
    doc,
    [
      [`${title} number`, invoice.number],
      ['Issue date', formatDay(invoice.issued_at)],
      ...(invoice.kind === 'invoice'
        ? ([['Due date', `${formatDay(invoice.due_on)} (${invoice.terms_days} days)`]] as [string, string][])
        : []),
      ['Period', formatMonth(invoice.period)],
      ['State', INVOICE_STATE_LABELS[invoice.state]],
    ],
    left + width - pairsWidth,
    90,
    pairsWidth - 90,
    'right',
  );
  doc.x = left;
  doc.y = Math.max(titleBottom, doc.y) + 20;
}

function drawParties(doc: Pdf, seller: InvoiceParty, buyer: InvoiceParty) {
  const left = contentLeft(doc);
  const gap = 25;
  const columnWidth = (contentWidth(doc) - gap) / 2;
  const top = doc.y;
  const party = (label: string, details: InvoiceParty, x: number) => {
    doc.y = top;
    doc
      .font(FONT.bold)
      .fontSize(SIZE.small)
      .fillColor(COLOR.muted)
      .text(label.toUpperCase(), x, doc.y, { width: columnWidth, characterSpacing: 0.5 });
    doc.y += 3;
    doc.font(FONT.bold).fontSize(10).fillColor(COLOR.text).text(printable(details.legal_name), x, doc.y, { width: columnWidth });
    doc.font(FONT.regular).fontSize(SIZE.body);
    const address = details.address.trim();
    if (address) doc.text(printable(address), x, doc.y + 1, { width: columnWidth });
    if (details.tax_id) doc.text(printable(`Tax ID: ${details.tax_id}`), x, doc.y + 2, { width: columnWidth });
    return doc.y;
  };
  const sellerBottom = party('From', seller, left);
  const buyerBottom = party('Bill to', buyer, left + columnWidth + gap);
  doc.x = left;
  doc.y = Math.max(sellerBottom, buyerBottom) + 22;
}

function drawLines(doc: Pdf, invoice: InvoiceDetail) {
  if (invoice.lines.length === 0) {
    emptyNote(doc, 'No lines.', 12);
    return;
  }
  drawTable(
    doc,
    [
      { header: 'Date', width: 60 },
      { header: 'Description', width: 'fill' },
      { header: 'Credits', width: 72, align: 'right' },
      { header: `Unit price (${invoice.currency})`, width: 80, align: 'right' },
      { header: `Amount (${invoice.currency})`, width: 82, align: 'right' },
    ],
    invoice.lines.map((line) => [
      formatDay(line.occurred_at),
      line.description,
      formatDecimal(line.credits),
      formatDecimal(line.unit_price, 4),
      formatDecimal(line.amount),
    ]),
  );
  doc.y += 14;
}

function drawTotals(doc: Pdf, invoice: InvoiceDetail) {
  const rows: { label: string; value: string; strong?: boolean; ruleAbove?: boolean }[] = [
    { label: 'Subtotal', value: formatMoney(invoice.subtotal, invoice.currency) },
    { label: `${invoice.tax_label} ${formatPercent(invoice.tax_rate)}`, value: formatMoney(invoice.tax, invoice.currency) },
    { label: 'Total', value: formatMoney(invoice.total, invoice.currency), strong: true, ruleAbove: true },
  ];
  if (invoice.kind === 'invoice') {
    rows.push(
      { label: 'Paid', value: formatMoney(invoice.paid, invoice.currency) },
      { label: 'Outstanding', value: formatMoney(invoice.outstanding, invoice.currency), strong: true, ruleAbove: true },
    );
  }
  const lineHeight = SIZE.body + 6;
  ensureSpace(doc, rows.length * lineHeight + 10);
  const labelWidth = 150;
  const valueWidth = 120;
  const x = contentLeft(doc) + contentWidth(doc) - labelWidth - valueWidth;
  for (const row of rows) {
    if (row.ruleAbove) {
      doc
        .moveTo(x, doc.y)
        .lineTo(x + labelWidth + valueWidth, doc.y)
        .lineWidth(0.6)
        .strokeColor(COLOR.text)
        .stroke();
      doc.y += 3;
    }
    const top = doc.y;
    doc
      .font(row.strong ? FONT.bold : FONT.regular)
      .fontSize(row.strong ? 10 : SIZE.body)
      .fillColor(COLOR.text);
    doc.text(printable(row.label), x, top, { width: labelWidth });
    doc.text(printable(row.value), x + labelWidth, top, { width: valueWidth, align: 'right' });
    doc.y = top + lineHeight;
  }
  doc.x = contentLeft(doc);
  doc.font(FONT.regular).fontSize(SIZE.body);
  doc.y += 10;
}

function drawPayments(doc: Pdf, invoice: InvoiceDetail) {
  const payments = invoice.payments.filter((payment) => payment.reversed_at === null);
  if (payments.length === 0) return;
  ensureSpace(doc, 60);
  heading(doc, 'Payments received');
  drawTable(
    doc,
    [
      { header: 'Date', width: 70 },
      { header: 'Method', width: 100 },
      { header: 'Reference', width: 'fill' },
      { header: `Amount (${invoice.currency})`, width: 100, align: 'right' },
    ],
    payments.map((payment) => [
      formatDay(payment.paid_on),
      PAYMENT_METHOD_LABELS[payment.method],
      payment.reference,
      formatDecimal(payment.amount),
    ]),
  );
  doc.y += 14;
}

function drawVoid(doc: Pdf, invoice: InvoiceDetail) {
  if (!invoice.voided_at) return;
  ensureSpace(doc, 40);
  const reason = invoice.void_reason?.trim().replace(/([^.!?])$/, '$1.');
  const text = `Voided on ${formatDay(invoice.voided_at)}${reason ? `: ${reason}` : '.'} ${invoice.kind === 'invoice' ? 'Nothing is owed on it.' : 'It credits nothing.'}`;
  doc
    .font(FONT.bold)
    .fontSize(SIZE.body)
    .fillColor('#a00000')
    .text(printable(text), contentLeft(doc), doc.y, { width: contentWidth(doc) });
  doc.fillColor(COLOR.text).font(FONT.regular);
  doc.y += 12;
}

function drawNote(doc: Pdf, note: string | null) {
  if (!note?.trim()) return;
  ensureSpace(doc, 40);
  heading(doc, 'Note');
  // A long note flows onto the next page by itself: the bottom margin keeps it off the footer.
  doc
    .font(FONT.regular)
    .fontSize(SIZE.body)
    .fillColor(COLOR.text)
    .text(printable(note.trim()), contentLeft(doc), doc.y, { width: contentWidth(doc) });
}
