/**
 * What the server answers about billing details, invoices, payments and statements, and the
 * mails invoices send.
 */
export const INVOICE_MESSAGES = {
  legalNameRequired: 'Enter the legal name printed on invoices.',
  legalNameTooLong: 'A legal name can be at most 200 characters.',
  addressRequired: 'Enter the address printed on invoices.',
  addressTooLong: 'An address can be at most 500 characters.',
  taxIdTooLong: 'A tax id can be at most 50 characters.',
  currencyInvalid: 'Enter a three-letter ISO 4217 currency code, such as USD or EUR.',
  creditPriceInvalid: 'Enter what one credit costs: a number of 0 or more with at most 4 decimals.',
  taxRateInvalid: 'Enter a tax rate from 0 to 100 percent, with at most 3 decimals.',
  taxLabelInvalid: 'Enter the tax label printed on invoices (at most 30 characters), such as VAT or Sales tax.',
  termsInvalid: 'Enter payment terms of 0 to 365 whole days.',
  prefixInvalid: 'An invoice number prefix is at most 12 letters, digits or dashes.',
  noteTooLong: 'An invoice note can be at most 1,000 characters.',
  onlySellers: 'Only the house, super agencies and agencies bill their children.',
  onlyOwnAdmins: "Only the organization's own admins change its billing details and its invoices.",
  detailsMissing: 'Set your billing details (Settings > Billing details) before issuing invoices.',
  nothingToIssue: 'This organization has nothing to invoice: no credits moved to it since its last invoice.',
  notYourChild: 'Only your direct children are invoiced by your organization.',
  invoiceNotFound: 'Invoice not found.',
  paymentAmountInvalid: 'Enter a payment amount above 0 with at most 2 decimals.',
  overpayment: (outstanding: string, currency: string) =>
    `This payment is more than what is still owed (${outstanding} ${currency}). Enter at most what is owed.`,
  paymentDateInvalid: 'Enter the payment date as YYYY-MM-DD, not in the future.',
  paymentReferenceTooLong: 'A payment reference can be at most 200 characters.',
  reasonRequired: 'Say why, in at most 500 characters.',
  notPayable: 'Only an issued invoice that is not void takes payments.',
  creditNoteNoPayments: 'A credit note takes no payments.',
  paymentAlreadyReversed: 'This payment was already reversed.',
  paymentNotFound: 'Payment not found.',
  voidHasPayments: 'Reverse its payments before voiding this invoice.',
  alreadyVoid: 'This invoice is already void.',
  monthInvalid: 'Use a month as YYYY-MM.',
  monthInFuture: 'That month has not started yet.',
  codeInvalid: 'A verification code is 64 hexadecimal characters.',
  issuedSubject: (seller: string, number: string) => `Invoice ${number} from ${seller}`,
  issued: (seller: string, buyer: string, number: string, total: string, currency: string, due: string) =>
    `${seller} issued invoice ${number} to ${buyer} for ${total} ${currency}, due on ${due}.`,
  creditNoteSubject: (seller: string, number: string) => `Credit note ${number} from ${seller}`,
  creditNote: (seller: string, buyer: string, number: string, total: string, currency: string) =>
    `${seller} issued credit note ${number} to ${buyer} for ${total} ${currency}.`,
  overdueSubject: (number: string) => `Invoice ${number} is overdue`,
  overdue: (seller: string, number: string, outstanding: string, currency: string, due: string) =>
    `Invoice ${number} from ${seller} was due on ${due} and ${outstanding} ${currency} of it is still unpaid.`,
  paidSubject: (number: string) => `Invoice ${number} is paid`,
  paid: (seller: string, number: string, total: string, currency: string) =>
    `${seller} recorded your payment: invoice ${number} for ${total} ${currency} is paid in full. Thank you.`,
} as const;
