import { zodResolver } from '@hookform/resolvers/zod';
import {
  allocationSchema,
  isDirectChild,
  isOwnOrDirectChild,
  mayAllocateFrom,
  mayAllocateTo,
  ORG_TYPE_LABELS,
  type AllocationResult,
  type Organization,
  type OrganizationDetail,
} from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Link, useLocation, useParams } from 'react-router';
import { z } from 'zod';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { LabelledControl } from '@/components/labelled-control';
import { Textarea } from '@/components/ui/textarea';
import { agentQueries } from '@/api/agents';
import { useAllocateCredits } from '@/api/credits';
import { organizationQueries } from '@/api/organizations';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { ApiError } from '@/lib/api';
import { formatCredits, formatDecimal, isNegative, subtractCredits } from '@/lib/credit-format';
import { orgBaseOf } from '@/lib/org-base';
import { useViewer } from '@/lib/use-viewer';
import { applyServerErrors, fieldOf } from '@/lib/form';
import { amountFieldSchema } from '../amount-field';
import { AmountField } from '../components/amount-field';
import { GrantTermsFields } from '../components/grant-terms-fields';
import { NO_TERMS, TERMS_FIELDS, termsFieldsSchema, termsSummary } from '../grant-terms';
import { newIdempotencyKey } from '../idempotency-key';
import { useUnsavedChangesGuard } from '@/lib/use-unsaved-changes';
import { MESSAGES } from '../wording';

const c = MESSAGES.credits;
const p = MESSAGES.creditPages;

const allocateFormSchema = z.object({
  to_org_id: allocationSchema.shape.to_org_id,
  amount: amountFieldSchema,
  notes: z.string().trim().max(500, 'Notes must be at most 500 characters.'),
  /** Optional: the credits then arrive as a grant (sent only when they say something). */
  terms: termsFieldsSchema,
});
type AllocateFormInput = z.input<typeof allocateFormSchema>;
type AllocateFormOutput = z.output<typeof allocateFormSchema>;

function OrganizationError({ error, onRetry }: { error: Error; onRetry(): unknown }) {
  return (
    <QueryError
      error={error}
      title={MESSAGES.organizations.failedToLoadDetails}
      notFound={MESSAGES.organizations.notFound}
      onRetry={onRetry}
    />
  );
}

interface ShownResult extends AllocationResult {
  toName: string;
}

/**
 * The step between the form and the allocation: what moves, from whom, to whom, and what the
 * source keeps, computed exactly from the balance the server gave. Nothing is sent until Confirm.
 */
function AllocationReview({
  fromName,
  balance,
  toName,
  amount,
  terms,
  busy,
  onConfirm,
  onBack,
}: {
  fromName: string;
  balance: string;
  toName: string;
  amount: string;
  /** What the terms say, when the credits carry some. */
  terms: string | null;
  busy: boolean;
  onConfirm(): void;
  onBack(): void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The step replaces the form: move the focus to it, so a keyboard or screen-reader user lands on it.
  useEffect(() => heading.current?.focus(), []);
  const keeps = subtractCredits(balance, amount);
  const overdrawn = keeps === null || isNegative(keeps);
  return (
    <section aria-labelledby="allocate-review-title" className="space-y-4">
      <h2 id="allocate-review-title" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        {p.reviewTitle}
      </h2>
      <p className="tabular-nums">{p.reviewSummary(formatDecimal(amount), fromName, toName, formatDecimal(keeps ?? balance))}</p>
      {terms && <p>{terms}</p>}
      {overdrawn && <ErrorAlert title={MESSAGES.shell.errorTitle} message={p.reviewOverdrawn(fromName, formatDecimal(balance))} />}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="button" onClick={onConfirm} disabled={busy || overdrawn}>
          {busy ? 'Allocating…' : p.confirmAllocation}
        </Button>
        <Button type="button" variant="outline" onClick={onBack} disabled={busy}>
          {p.backToEdit}
        </Button>
      </div>
    </section>
  );
}

function AllocationForm({ from, childOrgs, preselected }: { from: OrganizationDetail; childOrgs: Organization[]; preselected: string }) {
  const allocate = useAllocateCredits();
  const defaults: AllocateFormInput = { to_org_id: preselected, amount: '', notes: '', terms: NO_TERMS };
  const form = useForm<AllocateFormInput, unknown, AllocateFormOutput>({
    resolver: zodResolver(allocateFormSchema),
    defaultValues: defaults,
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  useUnsavedChangesGuard(isDirty);
  const [result, setResult] = useState<ShownResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The checked form values awaiting Confirm; null while the form is being edited.
  const [review, setReview] = useState<AllocateFormOutput | null>(null);
  // The catalog names the agent types of the terms under review (the Terms section loaded it).
  const catalog = useQuery({ ...agentQueries.types(), enabled: !!review?.terms?.agent_types?.length });
  const agentNames = new Map((catalog.data ?? []).map((type) => [type.code, type.name]));
  // Back from the review step to the form: the focus goes to the amount, not to the page's top.
  const backToForm = useRef(false);
  useEffect(() => {
    if (review !== null || !backToForm.current) return;
    backToForm.current = false;
    form.setFocus('amount');
  }, [review, form]);
  function edit() {
    backToForm.current = true;
    setReview(null);
  }
  // The key of a submission that failed on the network: sending the same form again reuses it.
  const pending = useRef<{ key: string; signature: string } | null>(null);

  async function submit(values: AllocateFormOutput) {
    const input = {
      from_org_id: from.id,
      to_org_id: values.to_org_id,
      amount: values.amount,
      notes: values.notes || null,
      ...(values.terms && { terms: values.terms }),
    };
    const signature = JSON.stringify(input);
    const idempotencyKey = pending.current?.signature === signature ? pending.current.key : newIdempotencyKey();
    pending.current = { key: idempotencyKey, signature };
    setFailure(null);
    try {
      const answer = await allocate.mutateAsync({ input, idempotencyKey });
      pending.current = null;
      const toName = childOrgs.find((child) => child.id === values.to_org_id)?.name ?? values.to_org_id;
      setResult({ ...answer, toName });
      setReview(null);
      form.reset(defaults);
    } catch (error) {
      // Only a request that may not have reached the server keeps its key for a retry.
      if (!(error instanceof ApiError && error.status === 0)) pending.current = null;
      setResult(null);
      // Back to the form, with the values kept and the reason shown above the button.
      edit();
      // A refused term (a 400 or 422 naming it) shows on its field too.
      setFailure(c.allocateFailed(applyServerErrors(error, TERMS_FIELDS, form.setError)));
    }
  }

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>From {from.name}</CardTitle>
          <CardDescription>
            Available: <span className="tabular-nums">{formatCredits(from.credit_balance)}</span>
          </CardDescription>
        </CardHeader>
        <CardContent>
          {review ? (
            <AllocationReview
              fromName={from.name}
              balance={from.credit_balance}
              toName={childOrgs.find((child) => child.id === review.to_org_id)?.name ?? review.to_org_id}
              amount={review.amount}
              terms={review.terms ? termsSummary(review.terms, agentNames) : null}
              busy={allocate.isPending}
              onConfirm={() => void submit(review)}
              onBack={edit}
            />
          ) : (
            <FormProvider {...form}>
              <form
                noValidate
                className="space-y-4"
                onSubmit={(event) =>
                  void form.handleSubmit((values) => {
                    setFailure(null);
                    setResult(null);
                    // More than the source holds is refused here, as the server would refuse it, before any review.
                    const keeps = subtractCredits(from.credit_balance, values.amount);
                    if (keeps === null || isNegative(keeps)) {
                      form.setError('amount', { message: c.insufficient(from.credit_balance) }, { shouldFocus: true });
                      return;
                    }
                    setReview(values);
                  })(event)
                }
              >
                <div className="grid gap-2">
                  <Label htmlFor="allocate-to">Child organization</Label>
                  <NativeSelect
                    id="allocate-to"
                    aria-invalid={errors.to_org_id ? true : undefined}
                    aria-describedby={errors.to_org_id ? 'allocate-to-error' : undefined}
                    {...form.register('to_org_id')}
                  >
                    <option value="">Select a child organization</option>
                    {childOrgs.map((child) => (
                      <option key={child.id} value={child.id}>
                        {child.name} ({ORG_TYPE_LABELS[child.org_type]}) — {formatCredits(child.credit_balance)}
                      </option>
                    ))}
                  </NativeSelect>
                  {errors.to_org_id && (
                    <p id="allocate-to-error" className="text-sm text-destructive">
                      {errors.to_org_id.message}
                    </p>
                  )}
                </div>
                <AmountField id="allocate-amount" {...fieldOf(form, 'amount')} />
                <LabelledControl id="allocate-notes" label="Notes (optional)" error={errors.notes?.message}>
                  {(aria) => <Textarea id="allocate-notes" {...aria} {...form.register('notes')} />}
                </LabelledControl>
                <GrantTermsFields idPrefix="allocate" />
                {failure && <ErrorAlert title={MESSAGES.shell.errorTitle} message={failure} />}
                <Button type="submit" className="w-full sm:w-auto" disabled={isSubmitting}>
                  {p.allocateCredits}
                </Button>
              </form>
            </FormProvider>
          )}
        </CardContent>
      </Card>

      {result && (
        <Card role="status" aria-label={p.allocatedTitle}>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CheckCircle2 className="size-5 text-green-600" aria-hidden />
              {p.allocatedTitle}
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-muted-foreground">Transaction ID</dt>
              <dd className="font-mono break-all">{result.transaction_id}</dd>
              <dt className="text-muted-foreground">{from.name} balance</dt>
              <dd className="tabular-nums">{formatCredits(result.from_balance)}</dd>
              <dt className="text-muted-foreground">{result.toName} balance</dt>
              <dd className="tabular-nums">{formatCredits(result.to_balance)}</dd>
            </dl>
          </CardContent>
        </Card>
      )}
    </div>
  );
}

/** {base}/:id/allocate-credits: credits move from the user's organization to an active direct child. */
export default function AllocateCreditsPage() {
  const { id = '' } = useParams();
  const viewer = useViewer();
  const location = useLocation();
  const base = orgBaseOf(location.pathname);
  const ownOrgId = viewer?.organization.id ?? '';
  // Credits leave only the viewer's own organization.
  const mayAllocate = !!viewer && mayAllocateFrom(viewer, viewer.organization);

  const subject = useQuery({ ...organizationQueries.detail(id), enabled: mayAllocate && !!id });
  const own = useQuery({ ...organizationQueries.detail(ownOrgId), enabled: mayAllocate && !!ownOrgId });
  const children = useQuery({
    ...organizationQueries.list({ view: 'children', status: 'active', organization_id: ownOrgId, page_size: 100 }),
    enabled: mayAllocate && !!ownOrgId,
  });

  const header = (
    <header className="space-y-2">
      <BackLink to={id ? `${base}/${id}` : base} />
      <h1 className="text-3xl font-bold tracking-tight">{p.allocateCredits}</h1>
      <p className="text-muted-foreground">{p.allocateDescription}</p>
    </header>
  );

  let body: ReactNode;
  if (!viewer) {
    body = <ErrorAlert title="Configuration Error" message="User organization ID not found. Please try logging out and back in." />;
  } else if (!mayAllocate) {
    body = <ErrorAlert title={MESSAGES.auth.accessDenied} message={MESSAGES.generic.forbidden} />;
  } else if (subject.isError) {
    body = <OrganizationError error={subject.error} onRetry={subject.refetch} />;
  } else if (own.isError) {
    body = <OrganizationError error={own.error} onRetry={own.refetch} />;
  } else if (children.isError) {
    body = <QueryError error={children.error} title={MESSAGES.organizations.failedToLoad} onRetry={children.refetch} />;
  } else if (subject.isPending || own.isPending || children.isPending) {
    body = <LoadingRows rows={['h-8 w-64', 'h-48 w-full']} />;
  } else if (!isOwnOrDirectChild(viewer, subject.data)) {
    // Further down the tree than a direct child: the refusal the server gives for such a target.
    body = (
      <div className="space-y-4">
        <ErrorAlert title={MESSAGES.organizations.permissionDenied} message={c.notDirectChild} />
        <Button asChild variant="outline">
          <Link to={`${base}/${ownOrgId}/allocate-credits`}>Allocate from {own.data.name}</Link>
        </Button>
      </div>
    );
  } else if (children.data.organizations.length === 0) {
    body = (
      <Alert>
        <AlertCircle aria-hidden />
        <AlertTitle>{p.noActiveChildren}</AlertTitle>
      </Alert>
    );
  } else {
    const preselected =
      mayAllocateTo(viewer, subject.data) && children.data.organizations.some((child) => child.id === subject.data.id)
        ? subject.data.id
        : '';
    // A direct child named in the URL that is not active is not offered: say so rather than drop it silently.
    const notActive = isDirectChild(viewer, subject.data) && subject.data.status !== 'active';
    body = (
      <div className="space-y-4">
        {notActive && (
          <Alert>
            <AlertCircle aria-hidden />
            <AlertDescription>{p.childNotActive(subject.data.name, subject.data.status)}</AlertDescription>
          </Alert>
        )}
        <AllocationForm key={preselected} from={own.data} childOrgs={children.data.organizations} preselected={preselected} />
      </div>
    );
  }

  return (
    <section className="mx-auto max-w-2xl space-y-6">
      {header}
      {body}
    </section>
  );
}
