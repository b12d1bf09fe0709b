import { endpoint } from '../contract.ts';
import { statementParamsSchema, statementSchema, statementVerificationSchema, verifyStatementQuerySchema } from '../schemas/statements.ts';

/** What every statement endpoint shares: one month of one organization, read by those who see its billing. */
const ofStatement = {
  tags: ['statements'],
  auth: 'session',
  permission: 'billing.view',
  params: statementParamsSchema,
  errors: [404, 422],
} as const;

/** Monthly statements of an organization in the caller's reach (its own people and those above it, as for its ledger). */
export const statementsEndpoints = {
  get: endpoint({
    ...ofStatement,
    operationId: 'getStatement',
    method: 'GET',
    path: '/organizations/:id/statements/:month',
    summary: "An organization's statement of a month: opening balance, every movement grouped, closing balance, chain head",
    responses: { 200: statementSchema },
  }),
  csv: endpoint({
    ...ofStatement,
    operationId: 'exportStatement',
    method: 'GET',
    path: '/organizations/:id/statements/:month/csv',
    summary: 'The same statement as CSV',
    responses: { 200: null },
    produces: 'text/csv',
  }),
  pdf: endpoint({
    ...ofStatement,
    operationId: 'getStatementPdf',
    method: 'GET',
    path: '/organizations/:id/statements/:month/pdf',
    summary: 'The same statement as a PDF',
    responses: { 200: null },
    produces: 'application/pdf',
  }),
  verify: endpoint({
    ...ofStatement,
    operationId: 'verifyStatement',
    method: 'GET',
    path: '/organizations/:id/statements/:month/verify',
    summary: "Whether a statement's verification code is still the chain head the ledger holds, and the first broken entry if not",
    query: verifyStatementQuerySchema,
    responses: { 200: statementVerificationSchema },
  }),
};
