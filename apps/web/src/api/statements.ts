import { statementsEndpoints as endpoints } from '@console/domain';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { call, download } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { statementKeys } from './query-keys';

export const statementQueries = {
  /** An organization's statement of a month (UTC): opening balance, the movements grouped, closing balance, chain head. */
  statement: (organizationId: string, month: string) =>
    queryOptions({
      queryKey: statementKeys.statement(organizationId, month),
      queryFn: ({ signal }) => call(endpoints.get, { params: { id: organizationId, month } }, { signal }),
      placeholderData: keepPreviousData,
    }),
  /** Whether a verification code is still the chain head the ledger holds at the month's end; asked afresh every time. */
  verification: (organizationId: string, month: string, code: string) =>
    queryOptions({
      queryKey: statementKeys.verification(organizationId, month, code),
      queryFn: ({ signal }) => call(endpoints.verify, { params: { id: organizationId, month }, query: { code } }, { signal }),
      staleTime: 0,
      gcTime: 0,
    }),
};

export type StatementFormat = 'csv' | 'pdf' | 'json';

/** Downloads a statement as CSV, PDF or JSON (the API's own answer) with the session's token. */
export function useDownloadStatement(organizationId: string) {
  return useMutation({
    mutationFn: async ({ month, format }: { month: string; format: StatementFormat }) => {
      const params = { id: organizationId, month };
      const { blob, filename } =
        format === 'csv'
          ? await download(endpoints.csv, { params }, { headers: { Accept: 'text/csv' } })
          : format === 'pdf'
            ? await download(endpoints.pdf, { params }, { headers: { Accept: 'application/pdf' } })
            : await download(endpoints.get, { params });
      return saveFile(blob, filename ?? `statement-${month}.${format}`);
    },
  });
}
