import { CHAIN_BREAK_LABELS, verifyStatementQuerySchema, type StatementVerification } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { statementQueries } from '@/api/statements';
import { FormField } from '@/components/form-field';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { MESSAGES } from '../wording';
import { monthLabel } from '../format';

const s = MESSAGES.invoicePages.statements;
const codeSchema = verifyStatementQuerySchema.shape.code;

/** The verify endpoint's answer in words: it matches, or where the chain broke, or that the ledger is whole and the code is another's. */
function Verdict({ result }: { result: StatementVerification }) {
  const broken = result.chain.first_broken;
  return (
    <div role="status" className="flex items-start gap-2 rounded-md border p-3 text-sm">
      {result.matches ? (
        <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-400" aria-hidden />
      ) : (
        <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      )}
      <div className="min-w-0 space-y-1 wrap-anywhere">
        {result.matches ? (
          <p className="font-medium">{s.matches(result.chain.checked)}</p>
        ) : (
          <>
            <p className="font-medium">{s.noMatch}</p>
            {broken ? (
              <p>{s.broken(broken.seq, broken.id, CHAIN_BREAK_LABELS[broken.reason])}</p>
            ) : (
              result.chain.whole && <p>{s.wholeButOther}</p>
            )}
            {result.head && <p className="font-mono text-xs text-muted-foreground">{s.headNow(result.head)}</p>}
          </>
        )}
      </div>
    </div>
  );
}

/**
 * Verify: paste a statement's verification code and read whether the ledger still holds the
 * chain head it names at the end of the month, or which entry broke the chain and how.
 */
export function VerifyStatement({ organizationId, month }: { organizationId: string; month: string }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [code, setCode] = useState<string | null>(null);
  const verification = useQuery({ ...statementQueries.verification(organizationId, month, code ?? ''), enabled: code !== null });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = codeSchema.safeParse(typed);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      setCode(null);
      return;
    }
    setError(undefined);
    // The same code again asks again: the ledger may have changed since.
    if (parsed.data === code) void verification.refetch();
    else setCode(parsed.data);
  }

  return (
    <Card className="min-w-0 gap-4">
      <CardHeader>
        <CardTitle>{s.verifyTitle}</CardTitle>
        <CardDescription>{s.verifyBody(monthLabel(month))}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <form noValidate onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="min-w-0 flex-1">
            <FormField
              id="statement-verify-code"
              label={s.verifyLabel}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              error={error}
              autoComplete="off"
              spellCheck={false}
              className="font-mono text-xs"
            />
          </div>
          <Button type="submit" className="sm:mt-[1.375rem]" disabled={verification.isFetching}>
            {verification.isFetching ? s.verifying : s.verify}
          </Button>
        </form>
        {code !== null && verification.isError && <QueryError error={verification.error} title={s.verifyFailed} />}
        {code !== null && verification.data && <Verdict result={verification.data} />}
      </CardContent>
    </Card>
  );
}
