import {
  fromCents,
  isOrgType,
  ORG_TYPE_LABELS,
  STATEMENT_GROUP_LABELS,
  toCents,
  type Statement,
  type StatementGroup,
} from '@console/domain';
import type { Pdf } from './document.ts';
import { contentLeft, contentWidth, drawPairs, drawTable, emptyNote, ensureSpace, finish, heading, newDocument } from './document.ts';
import { formatDay, formatDecimal, formatMonth, groupCode, printable } from './format.ts';
import { COLOR, FONT, SIZE } from './style.ts';

/**
 * An organization's monthly statement as a PDF: the opening balance, every group of movements
 * (kind, counterparty or agent, units and average price where there are any, entries, credits),
 * the credits in and out, the closing balance, and the verification code (the ledger's chain
 * head at the month's end) that `.../statements/:month/verify` checks. Credits print with two
 * decimals and thousands separators.
 *
 * A finished month renders the same bytes every time (its PDF is dated at the month's end); a
 * month still running is dated `generatedAt`, now unless given.
 */
export async function renderStatementPdf(statement: Statement, options: { generatedAt?: Date } = {}): Promise<Buffer> {
  const month = formatMonth(statement.month);
  const doc = newDocument({
    title: `Statement ${statement.month} · ${statement.organization.name}`,
    author: statement.organization.name,
    subject: `Monthly statement of ${statement.organization.name} for ${month}`,
    createdAt: statement.partial ? (options.generatedAt ?? new Date()) : new Date(statement.period_end),
  });

  drawTop(doc, statement, month);
  if (statement.partial) drawPartialNotice(doc, statement, month);
  if (!statement.closes)
    drawNotice(
      doc,
      'This statement does not close: its movements do not add up to the difference of its balances, so the ledger was changed outside its writer. Reconciliation (db:reconcile) names the entries.',
    );
  drawSummary(doc, statement);
  drawGroups(doc, statement);
  drawVerification(doc, statement, month);

  return finish(doc, [
    `${statement.organization.name} · Statement ${month}`,
    statement.verification_code
      ? `Statement verification code: ${groupCode(statement.verification_code)}`
      : 'Statement verification code: none (no ledger entries yet)',
  ]);
}

/** The last day the statement covers: the day before the (excluded) end. */
function lastDay(statement: Statement): string {
  const end = new Date(statement.period_end);
  if (Number.isNaN(end.getTime())) return statement.period_end;
  return new Date(end.getTime() - 1).toISOString().slice(0, 10);
}

function drawTop(doc: Pdf, statement: Statement, month: string) {
  const left = contentLeft(doc);
  const width = contentWidth(doc);
  const top = doc.y;
  const type = statement.organization.org_type;

  doc.font(FONT.bold).fontSize(SIZE.title).fillColor(COLOR.text).text('Monthly statement', left, top, { width: 260 });
  doc
    .font(FONT.regular)
    .fontSize(SIZE.heading)
    .text(month, left, doc.y + 2, { width: 260 });
  const titleBottom = doc.y;

  const pairsWidth = 230;
  doc.y = top + 2;
  drawPairs(
    doc,
    [
      ['Organization', statement.organization.name],
      ['Type', isOrgType(type) ? ORG_TYPE_LABELS[type] : type],
      ['Period', `${formatDay(statement.period_start)} – ${lastDay(statement)} (UTC)`],
      ['Entries', formatDecimal(String(statement.entries), 0)],
    ],
    left + width - pairsWidth,
    75,
    pairsWidth - 75,
    'right',
  );
  doc.x = left;
  doc.y = Math.max(titleBottom, doc.y) + 20;
}

function drawPartialNotice(doc: Pdf, statement: Statement, month: string) {
  drawNotice(
    doc,
    `Partial statement: ${month} is not over. It covers the entries written so far and will grow until the month ends on ${lastDay(statement)}; its closing balance and verification code are not final.`,
  );
}

/** A boxed notice above the balances: a partial month, or a ledger that no longer adds up. */
function drawNotice(doc: Pdf, text: string) {
  const left = contentLeft(doc);
  const width = contentWidth(doc);
  doc.font(FONT.regular).fontSize(SIZE.body);
  const height = doc.heightOfString(printable(text), { width: width - 20 }) + 14;
  const top = doc.y;
  doc.rect(left, top, width, height).lineWidth(0.8).fillAndStroke('#fff6dd', '#c99a00');
  doc.fillColor(COLOR.text).text(printable(text), left + 10, top + 7, { width: width - 20 });
  doc.x = left;
  doc.y = top + height + 16;
}

function drawSummary(doc: Pdf, statement: Statement) {
  const left = contentLeft(doc);
  const width = contentWidth(doc);
  const cells: [string, string][] = [
    ['Opening balance', statement.opening_balance],
    ['Credits in', statement.credits_in],
    ['Credits out', statement.credits_out],
    ['Closing balance', statement.closing_balance],
  ];
  const cellWidth = width / cells.length;
  const height = 42;
  const top = doc.y;
  doc.rect(left, top, width, height).fill(COLOR.band);
  cells.forEach(([label, value], index) => {
    const x = left + index * cellWidth + 8;
    doc
      .font(FONT.regular)
      .fontSize(SIZE.small)
      .fillColor(COLOR.muted)
      .text(label.toUpperCase(), x, top + 8, { width: cellWidth - 16, characterSpacing: 0.3 });
    doc
      .font(FONT.bold)
      .fontSize(12)
      .fillColor(COLOR.text)
      .text(formatDecimal(value), x, top + 20, { width: cellWidth - 16 });
  });
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.muted);
  doc.text('Amounts in credits.', left, top + height + 4, { width });
  doc.fillColor(COLOR.text);
  doc.x = left;
  doc.y += 16;
}

function who(group: StatementGroup): string {
  if (group.counterparty) return group.counterparty.name;
  if (group.agent) return group.agent.name;
  return '';
}

/** closing − opening, exactly: what the groups add up to. */
function netChange(statement: Statement): string {
  return fromCents(toCents(statement.closing_balance) - toCents(statement.opening_balance));
}

function drawGroups(doc: Pdf, statement: Statement) {
  ensureSpace(doc, 60);
  heading(doc, 'Movements');
  if (statement.groups.length === 0) {
    emptyNote(doc, 'No movements this month.', 14);
    return;
  }
  drawTable(
    doc,
    [
      { header: 'Movement', width: 118 },
      { header: 'Counterparty or agent', width: 'fill' },
      { header: 'Units', width: 62, align: 'right' },
      { header: 'Unit price', width: 62, align: 'right' },
      { header: 'Entries', width: 44, align: 'right' },
      { header: 'Credits', width: 82, align: 'right' },
    ],
    [
      ...statement.groups.map((group) => [
        STATEMENT_GROUP_LABELS[group.kind],
        who(group),
        group.units === null ? '' : formatDecimal(group.units, 0),
        group.unit_price === null ? '' : formatDecimal(group.unit_price, 0),
        formatDecimal(String(group.entries), 0),
        formatDecimal(group.amount),
      ]),
      ['Net change', '', '', '', formatDecimal(String(statement.entries), 0), formatDecimal(netChange(statement))],
    ],
    { boldLastRow: true },
  );
  doc.y += 16;
}

function drawVerification(doc: Pdf, statement: Statement, month: string) {
  const left = contentLeft(doc);
  const width = contentWidth(doc);
  ensureSpace(doc, 90);
  heading(doc, 'Statement verification code');
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.text);
  if (!statement.verification_code) {
    doc.text('None: the ledger had no entries by the end of this period.', left, doc.y, { width });
    return;
  }
  doc.text(
    `The hash of the last ledger entry before the end of ${month}. Every entry's hash covers the one before it, so this code changes if any entry up to it is changed or removed. GET /api/organizations/${statement.organization.id}/statements/${statement.month}/verify?code=<this code> answers whether the ledger still holds it, and names the first changed entry if not.`,
    left,
    doc.y,
    { width },
  );
  doc.y += 6;
  doc.font('Courier-Bold').fontSize(11).text(groupCode(statement.verification_code), left, doc.y, { width });
  doc.font(FONT.regular).fontSize(SIZE.body);
}
