import { MFA_POLICY_GRACE, mayManageMfaPolicy, roleLabel, type MfaPolicyView, type OrganizationDetail } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { mfaPolicyQueries, useUpdateMfaPolicy } from '@/api/mfa-policy';
import { ErrorAlert } from '@/components/error-alert';
import { IconCardTitle } from '@/components/icon-card-title';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/dates';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { FormSwitch } from './form-switch';

const w = MESSAGES.mfaPolicy;
type Settings = Pick<MfaPolicyView['policy'], 'require_own' | 'require_subtree' | 'require_admins' | 'grace_days'>;

/**
 * An organization's second-factor policy on its page, for its own admins: what it requires of
 * its people and below, what an organization above already requires (shown on and locked, as a
 * child can add to it but never take it away), and who is covered and by when.
 */
export function MfaPolicyCard({ organization, now = new Date() }: { organization: OrganizationDetail; now?: Date }) {
  const viewer = useViewer();
  const policy = useQuery(mfaPolicyQueries.of(organization.id));
  return (
    <Card>
      <CardHeader>
        <IconCardTitle icon={ShieldCheck}>{w.title}</IconCardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {policy.isPending ? (
          <Skeleton className="h-40 w-full" />
        ) : policy.isError ? (
          <QueryError error={policy.error} title={w.title} />
        ) : (
          <>
            <PolicyForm
              view={policy.data}
              isHouse={organization.org_type === 'house'}
              editable={!!viewer && mayManageMfaPolicy(viewer, organization)}
            />
            <Coverage view={policy.data} now={now} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

const settingsOf = ({ require_own, require_subtree, require_admins, grace_days }: Settings): Settings => ({
  require_own,
  require_subtree,
  require_admins,
  grace_days,
});

function PolicyForm({ view, isHouse, editable }: { view: MfaPolicyView; isHouse: boolean; editable: boolean }) {
  const save = useUpdateMfaPolicy(view.organization_id);
  // The form keeps what the admin set; what was saved is what it shows.
  const [form, setForm] = useState<Settings>(() => settingsOf(view.policy));
  const graceId = useId();
  const lockedSubtree = view.inherited.some((i) => i.kind === 'subtree');
  const set = (patch: Partial<Settings>) => setForm((f) => ({ ...f, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(form);
  };
  return (
    <form className="space-y-3" onSubmit={submit} aria-label={w.title}>
      {view.inherited.length > 0 && (
        <div className="rounded-lg border bg-muted/40 p-3 text-sm">
          <p className="font-medium">{w.inheritedTitle}</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {view.inherited.map((i) => (
              <li key={`${i.organization_id}-${i.kind}`}>{w.inherited(i.organization_name, i.kind, i.grace_days)}</li>
            ))}
          </ul>
        </div>
      )}
      <FormSwitch
        label={w.requireOwn}
        description={lockedSubtree ? w.lockedOn : w.requireOwnHelp}
        checked={lockedSubtree || form.require_own}
        disabled={!editable || lockedSubtree}
        onCheckedChange={(v) => set({ require_own: v })}
      />
      <FormSwitch
        label={w.requireSubtree}
        description={lockedSubtree ? w.lockedOn : w.requireSubtreeHelp}
        checked={lockedSubtree || form.require_subtree}
        disabled={!editable || lockedSubtree}
        onCheckedChange={(v) => set({ require_subtree: v })}
      />
      {isHouse && (
        <FormSwitch
          label={w.requireAdmins}
          description={w.requireAdminsHelp}
          checked={form.require_admins}
          disabled={!editable}
          onCheckedChange={(v) => set({ require_admins: v })}
        />
      )}
      <div className="space-y-1">
        <Label htmlFor={graceId}>{w.graceDaysLabel}</Label>
        <Input
          id={graceId}
          type="number"
          className="w-28"
          min={MFA_POLICY_GRACE.min}
          max={MFA_POLICY_GRACE.max}
          value={form.grace_days}
          disabled={!editable}
          aria-describedby={`${graceId}-help`}
          onChange={(e) => set({ grace_days: Number(e.target.value) })}
        />
        <p id={`${graceId}-help`} className="text-sm text-muted-foreground">
          {w.graceHelp}
        </p>
      </div>
      {save.isError && <ErrorAlert title={w.title} message={save.error.message} />}
      {save.isSuccess && (
        <p role="status" className="text-sm text-muted-foreground">
          {w.saved}
        </p>
      )}
      {editable && (
        <Button type="submit" disabled={save.isPending}>
          {w.save}
        </Button>
      )}
    </form>
  );
}

function Coverage({ view, now }: { view: MfaPolicyView; now: Date }) {
  const { coverage } = view;
  return (
    <section aria-labelledby={`coverage-${view.organization_id}`} className="space-y-2">
      <h3 id={`coverage-${view.organization_id}`} className="text-sm font-medium">
        {w.coverageTitle}
      </h3>
      <p className="text-sm text-muted-foreground">{w.coverageSummary(coverage.covered, coverage.not_enrolled)}</p>
      {coverage.people.length > 0 && (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{w.person}</TableHead>
              <TableHead>{w.state}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {coverage.people.map((p) => (
              <TableRow key={p.id}>
                <TableCell>
                  <div className="font-medium">{p.name ?? p.email}</div>
                  <div className="text-xs text-muted-foreground">{roleLabel(p.role)}</div>
                </TableCell>
                <TableCell>
                  {p.enrolled ? (
                    <Badge variant="secondary">{w.enrolled}</Badge>
                  ) : Date.parse(p.deadline!) <= now.getTime() ? (
                    <Badge variant="destructive">{w.overdue(formatDate(p.deadline))}</Badge>
                  ) : (
                    <Badge variant="outline">{w.dueBy(formatDate(p.deadline))}</Badge>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {coverage.truncated && <p className="text-sm text-muted-foreground">{w.truncated}</p>}
    </section>
  );
}
