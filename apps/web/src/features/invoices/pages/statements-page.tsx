import { monthSchema, type Statement } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Copy, Download } from 'lucide-react';
import { toast } from 'sonner';
import { statementQueries, useDownloadStatement, type StatementFormat } from '@/api/statements';
import { LoadingRows } from '@/components/loading-rows';
import { OrganizationTrail, useReadableOrganization } from '@/components/organization-trail';
import { OrgPicker } from '@/components/organizations/org-picker';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { announce } from '@/lib/announce';
import { formatCredits } from '@/lib/credit-format';
import { showsOrganizationList } from '@/lib/org-reach';
import { useSearchPatch } from '@/lib/use-search-patch';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { MonthSelect } from '../components/month-select';
import { StatementGroups } from '../components/statement-groups';
import { VerifyStatement } from '../components/verify-statement';
import { lastMonth, monthLabel } from '../format';

const s = MESSAGES.invoicePages.statements;

async function copyCode(code: string) {
  try {
    await navigator.clipboard.writeText(code);
    toast.success(s.copied);
  } catch {
    toast.error(s.copyFailed);
  }
}

/** Opening and closing balances, credits in and out, and how many entries the month holds. */
function Summary({ statement }: { statement: Statement }) {
  const figures: [string, string][] = [
    [s.opening, statement.opening_balance],
    [s.creditsIn, statement.credits_in],
    [s.creditsOut, statement.credits_out],
    [s.closing, statement.closing_balance],
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {figures.map(([label, amount]) => (
        <div key={label} className="min-w-0 rounded-md border p-3">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="text-lg font-semibold tabular-nums wrap-anywhere">{formatCredits(amount)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The chain head at the month's end, whole and selectable, with Copy. */
function VerificationCode({ code }: { code: string | null }) {
  return (
    <div className="space-y-2">
      <h3 className="font-medium">{s.codeTitle}</h3>
      <p className="text-sm text-muted-foreground">{s.codeBody}</p>
      {code ? (
        <div className="flex min-w-0 items-start gap-2">
          <code
            className="min-w-0 flex-1 rounded-md border bg-muted/40 px-2 py-1.5 font-mono text-xs break-all select-all"
            data-testid="verification-code"
          >
            {code}
          </code>
          <Button type="button" variant="outline" size="sm" aria-label={s.copyCode} onClick={() => void copyCode(code)}>
            <Copy aria-hidden />
            {s.copy}
          </Button>
        </div>
      ) : (
        <p className="text-sm">{s.codeNone}</p>
      )}
    </div>
  );
}

function Downloads({ organizationId, month }: { organizationId: string; month: string }) {
  const downloader = useDownloadStatement(organizationId);
  const run = (format: StatementFormat) => announce(downloader.mutateAsync({ month, format }), s.downloaded, s.downloadFailed);
  const buttons: [StatementFormat, string][] = [
    ['csv', s.downloadCsv],
    ['pdf', s.downloadPdf],
    ['json', s.downloadJson],
  ];
  return (
    <div className="flex flex-wrap gap-2">
      {buttons.map(([format, label]) => (
        <Button key={format} variant="outline" size="sm" onClick={() => run(format)} disabled={downloader.isPending}>
          <Download aria-hidden />
          {label}
        </Button>
      ))}
    </div>
  );
}

/**
 * /statements: an organization's statement of a month (last month unless `?month=` says), its
 * own by default or one of its subtree by `?organization_id=`, as its ledger is read: the
 * balances, the movements grouped, the verification code to keep, the downloads, and a box that
 * checks a code against the ledger as it is today.
 */
export default function StatementsPage() {
  const viewer = useViewer();
  const [params, update] = useSearchPatch();
  const requestedMonth = params.get('month');
  const month = requestedMonth && monthSchema.safeParse(requestedMonth).success ? requestedMonth : lastMonth();
  const chosen = params.get('organization_id');
  const organizationId = chosen ?? viewer?.organization.id ?? '';
  const viewingOther = !!chosen && chosen !== viewer?.organization.id;
  const viewed = useReadableOrganization(viewingOther ? chosen : null);
  const statement = useQuery({ ...statementQueries.statement(organizationId, month), enabled: !!organizationId });
  if (!viewer) return null;

  const data = statement.data;
  return (
    <section className="min-w-0 space-y-6">
      {viewingOther && <OrganizationTrail organization={viewed} page={s.title} />}
      <PageHeader title={s.title} subtitle={viewingOther ? s.subtitle(viewed?.name ?? data?.organization.name ?? '…') : s.subtitleOwn} />
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        {showsOrganizationList(viewer) && (
          <div className="grid gap-2">
            <Label htmlFor="statement-organization">{s.organization}</Label>
            <OrgPicker
              id="statement-organization"
              label={s.organization}
              value={viewingOther ? chosen : null}
              onChange={(id) => update({ organization_id: id && id !== viewer.organization.id ? id : undefined })}
            />
          </div>
        )}
        <MonthSelect
          id="statement-month"
          label={s.month}
          value={month}
          onChange={(next) => update({ month: next })}
          className="grid gap-2 sm:w-48"
        />
      </div>

      {statement.isPending ? (
        <LoadingRows rows={['h-24 w-full', 'h-64 w-full']} />
      ) : statement.isError ? (
        <QueryError error={statement.error} title={s.loadFailed} onRetry={statement.refetch} />
      ) : (
        data && (
          <>
            <Card className="min-w-0 gap-4">
              <CardHeader className="flex flex-wrap items-start justify-between gap-3">
                <div className="grid min-w-0 gap-1.5">
                  <CardTitle>
                    {data.organization.name} · {monthLabel(data.month)}
                  </CardTitle>
                  <CardDescription>{s.entries(data.entries)}</CardDescription>
                </div>
                <Downloads organizationId={organizationId} month={month} />
              </CardHeader>
              <CardContent className="space-y-4">
                {data.partial && (
                  <p
                    role="note"
                    className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
                  >
                    {s.partial}
                  </p>
                )}
                {!data.closes && (
                  <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm text-destructive">
                    {s.doesNotClose}
                  </p>
                )}
                <Summary statement={data} />
              </CardContent>
            </Card>
            <Card className="min-w-0 gap-4">
              <CardHeader>
                <CardTitle>{s.groupsTitle}</CardTitle>
              </CardHeader>
              <CardContent className="space-y-6">
                {data.groups.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{s.groupsEmpty}</p>
                ) : (
                  <StatementGroups groups={data.groups} />
                )}
                <VerificationCode code={data.verification_code} />
              </CardContent>
            </Card>
            <VerifyStatement organizationId={organizationId} month={month} />
          </>
        )
      )}
    </section>
  );
}
