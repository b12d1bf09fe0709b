import { createStatement } from './statement.ts';
import type { StatementsDeps } from './queries.ts';
import { createVerify } from './verify.ts';

export { statementCsv } from './csv.ts';

/** The statements service: an organization's monthly statement, and the check of its verification code against the ledger's chain. */
export function createStatementsService(deps: StatementsDeps) {
  const { statement } = createStatement(deps);
  const { verify } = createVerify(deps);
  return { statement, verify };
}

export type StatementsService = ReturnType<typeof createStatementsService>;
