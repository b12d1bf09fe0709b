import { CREDITS } from '@console/domain';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/form-field';

/** The credit amount input that `amountFieldSchema` reads: a decimal in the ledger's steps. */
export function AmountField({ id, error, ...registration }: UseFormRegisterReturn & { id: string; error?: string }) {
  return (
    <FormField
      id={id}
      label="Amount"
      type="number"
      inputMode="decimal"
      step={CREDITS.step}
      min={CREDITS.minAmount}
      error={error}
      {...registration}
    />
  );
}
