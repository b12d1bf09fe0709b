import { useMutation } from '@tanstack/react-query';
import { requestBlob } from '@/lib/api';
import { ledgerSearchParams, type LedgerFilters } from './get-ledger';

export function ledgerExportPath(filters: LedgerFilters): string {
  const params = ledgerSearchParams(filters);
  const query = params.toString();
  return `/api/credits/ledger/export${query ? `?${query}` : ''}`;
}

/** Downloads the CSV of the entries matching the filters (every page, not only the shown ones). */
export async function exportLedger(filters: LedgerFilters): Promise<string> {
  const { blob, filename } = await requestBlob(ledgerExportPath(filters), { headers: { Accept: 'text/csv' } });
  const name = filename ?? 'credit-ledger.csv';
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the browser keeps its own copy.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}

export function useExportLedger() {
  return useMutation({ mutationFn: exportLedger });
}
