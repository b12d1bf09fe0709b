import { roleLabel, type IdentitySettingsInput, type IdentityView } from '@console/domain';
import { ShieldCheck } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { useUpdateIdentitySettings } from '@/api/identity';
import { ErrorAlert } from '@/components/error-alert';
import { IconCardTitle } from '@/components/icon-card-title';
import { LabelledControl } from '@/components/labelled-control';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Switch } from '@/components/ui/switch';
import { ApiError } from '@/lib/api';
import { MESSAGES } from '../wording';

const r = MESSAGES.identityPages.rules;

type Field = keyof IdentitySettingsInput;

/** A labelled switch with the line that says what turning it on does, and what else belongs to it below. */
function SwitchRow(props: {
  label: string;
  description: string;
  checked: boolean;
  disabled: boolean;
  error?: string;
  onCheckedChange(checked: boolean): void;
  children?: ReactNode;
}) {
  const id = useId();
  const describedBy = [`${id}-description`, props.error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div className="grid gap-3 rounded-lg border p-3">
      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <Label htmlFor={id}>{props.label}</Label>
          <p id={`${id}-description`} className="text-sm text-muted-foreground">
            {props.description}
          </p>
          {props.error && (
            <p id={`${id}-error`} className="text-sm text-destructive">
              {props.error}
            </p>
          )}
        </div>
        <Switch
          id={id}
          checked={props.checked}
          disabled={props.disabled}
          aria-describedby={describedBy}
          aria-invalid={props.error ? true : undefined}
          onCheckedChange={props.onCheckedChange}
        />
      </div>
      {props.children}
    </div>
  );
}

/**
 * Just-in-time members and their role (never an admin role: the view lists those allowed),
 * Require single sign-on, and the break-glass admin. Save asks for a step-up; the server's
 * refusals (no verified domain, no break-glass admin) are said in place.
 */
export function SignInRulesCard({ view, mayManage }: { view: IdentityView; mayManage: boolean }) {
  const save = useUpdateIdentitySettings(view.organization_id);
  const [jit, setJit] = useState(view.jit_role !== null);
  const [jitRole, setJitRole] = useState(view.jit_role ?? view.jit_roles[0] ?? '');
  const [enforce, setEnforce] = useState(view.enforce_sso);
  const [breakGlass, setBreakGlass] = useState(view.break_glass?.id ?? '');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  // The named person stays a choice even when no longer listed among the active admins.
  const people =
    view.break_glass && !view.admins.some((a) => a.id === view.break_glass!.id) ? [view.break_glass, ...view.admins] : view.admins;
  const disabled = !mayManage;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await save.mutateAsync({ jit_role: jit ? jitRole : null, enforce_sso: enforce, break_glass_user_id: breakGlass || null });
      toast.success(r.saved);
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fields as Partial<Record<Field, string>>);
    }
  }

  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={ShieldCheck}>{r.title}</IconCardTitle>
        <CardDescription>{r.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate aria-label={r.title} className="grid gap-3" onSubmit={(event) => void submit(event)}>
          {!view.provider && <p className="text-sm text-muted-foreground">{r.noProvider}</p>}
          <SwitchRow label={r.jit} description={r.jitHelp} checked={jit} disabled={disabled} onCheckedChange={setJit}>
            {jit && (
              <LabelledControl id="identity-jit-role" label={r.jitRole} error={errors.jit_role}>
                {(aria) => (
                  // The select's chevron sits at the edge of this box, so the box takes the width.
                  <div className="sm:w-72">
                    <NativeSelect
                      id="identity-jit-role"
                      value={jitRole}
                      disabled={disabled}
                      onChange={(event) => setJitRole(event.target.value)}
                      {...aria}
                    >
                      {view.jit_roles.map((role) => (
                        <option key={role} value={role}>
                          {roleLabel(role)}
                        </option>
                      ))}
                    </NativeSelect>
                  </div>
                )}
              </LabelledControl>
            )}
          </SwitchRow>
          <SwitchRow
            label={r.enforce}
            description={r.enforceHelp}
            checked={enforce}
            disabled={disabled}
            error={errors.enforce_sso}
            onCheckedChange={setEnforce}
          />
          <LabelledControl id="identity-break-glass" label={r.breakGlass} hint={r.breakGlassHelp} error={errors.break_glass_user_id}>
            {(aria) => (
              <div className="sm:w-96">
                <NativeSelect
                  id="identity-break-glass"
                  value={breakGlass}
                  disabled={disabled}
                  onChange={(event) => setBreakGlass(event.target.value)}
                  {...aria}
                >
                  <option value="">{r.breakGlassNone}</option>
                  {people.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.name ? `${person.name} (${person.email})` : person.email}
                    </option>
                  ))}
                </NativeSelect>
              </div>
            )}
          </LabelledControl>
          {save.isError && <ErrorAlert title={r.saveFailed} message={save.error.message} />}
          {mayManage && (
            <Button type="submit" className="w-fit" disabled={save.isPending}>
              {save.isPending ? r.saving : r.save}
            </Button>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
