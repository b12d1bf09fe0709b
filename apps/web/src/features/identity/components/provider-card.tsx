import { identityProviderInputSchema, MESSAGES as DOMAIN_MESSAGES, type IdentityProviderInput, type IdentityView } from '@console/domain';
import { Fingerprint, LogIn, Trash2 } from 'lucide-react';
import { useState, type ChangeEvent, type ComponentProps, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useRemoveIdentityProvider, useSetIdentityProvider, useTestIdentityProvider } from '@/api/identity';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { ErrorAlert } from '@/components/error-alert';
import { LabelledControl } from '@/components/labelled-control';
import { IconCardTitle } from '@/components/icon-card-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api';
import { browser } from '@/lib/reload';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { CopyValue } from './copy-value';

const w = MESSAGES.identityPages;
const p = w.provider;

type Fields = { issuer: string; client_id: string; client_secret: string; email_claim: string; name_claim: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

const fieldsOf = (provider: IdentityView['provider']): Fields => ({
  issuer: provider?.issuer ?? '',
  client_id: provider?.client_id ?? '',
  client_secret: '',
  email_claim: provider?.email_claim ?? 'email',
  name_claim: provider?.name_claim ?? 'name',
});

/** The form checked as the server checks it; a blank secret is left out (kept) when a provider exists. */
function parse(fields: Fields, hasProvider: boolean): { body: IdentityProviderInput } | { errors: FieldErrors } {
  const { client_secret, ...rest } = fields;
  const parsed = identityProviderInputSchema.safeParse(client_secret ? { ...rest, client_secret } : rest);
  const errors: FieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof Fields;
      errors[key] ??= issue.message;
    }
  }
  if (!hasProvider && !client_secret) errors.client_secret = DOMAIN_MESSAGES.identity.clientSecretRequired;
  return parsed.success && Object.keys(errors).length === 0 ? { body: parsed.data } : { errors };
}

/**
 * The organization's OpenID Connect provider: the redirect URI to register there, the issuer,
 * client and claims (the secret write-only), Save, Test sign-in and Remove. Changes only when
 * `mayManage`; Save and Remove ask for a step-up as the server requires.
 */
export function ProviderCard({ view, mayManage }: { view: IdentityView; mayManage: boolean }) {
  const { provider } = view;
  return (
    <Card className="gap-4">
      <CardHeader>
        <IconCardTitle icon={Fingerprint}>{p.title}</IconCardTitle>
        <CardDescription>{p.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <CopyValue label={p.redirectUri} copyName={p.redirectUriName} value={view.redirect_uri} />
        <p className="text-sm text-muted-foreground" data-testid="provider-status">
          {provider
            ? `${p.registered(formatDateTime(provider.updated_at))} · ${provider.tested_at ? p.lastTested(formatDateTime(provider.tested_at)) : p.notTested}`
            : p.none}
        </p>
        {/* A saved provider resets the form to what was saved (the secret blank again). */}
        <ProviderForm key={provider?.updated_at ?? 'none'} view={view} mayManage={mayManage} />
      </CardContent>
    </Card>
  );
}

/** A labelled input with its hint and its message (the browser's autofill and spelling help kept off: these are identifiers). */
function TextField({
  id,
  label,
  hint,
  error,
  ...props
}: ComponentProps<'input'> & { id: string; label: string; hint?: string; error?: string }) {
  return (
    <LabelledControl id={id} label={label} hint={hint} error={error}>
      {(aria) => <Input id={id} autoComplete="off" spellCheck={false} {...aria} {...props} />}
    </LabelledControl>
  );
}

function ProviderForm({ view, mayManage }: { view: IdentityView; mayManage: boolean }) {
  const organizationId = view.organization_id;
  const hasProvider = view.provider !== null;
  const [fields, setFields] = useState<Fields>(() => fieldsOf(view.provider));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSetIdentityProvider(organizationId);
  const remove = useRemoveIdentityProvider(organizationId);
  const test = useTestIdentityProvider(organizationId);
  const [confirmRemove, setConfirmRemove] = useState(false);

  const field = (name: keyof Fields) => ({
    id: `identity-${name.replace('_', '-')}`,
    value: fields[name],
    error: errors[name],
    disabled: !mayManage,
    onChange: (event: ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [name]: event.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = parse(fields, hasProvider);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(checked.body);
      toast.success(p.saved);
    } catch (error) {
      // The server's word on a field goes beside it; the rest is shown above the buttons.
      if (error instanceof ApiError) setErrors(error.fields as FieldErrors);
    }
  }

  async function startTest() {
    try {
      const { redirect_url } = await test.mutateAsync();
      browser.assign(redirect_url);
    } catch {
      // Shown below the buttons.
    }
  }

  return (
    <form noValidate className="grid gap-4" aria-label={p.title} onSubmit={(event) => void submit(event)}>
      <TextField label={p.issuer} hint={p.issuerHint} type="url" inputMode="url" placeholder="https://" {...field('issuer')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={p.clientId} {...field('client_id')} />
        <TextField
          label={p.clientSecret}
          hint={hasProvider ? p.clientSecretKeep : p.clientSecretNew}
          type="password"
          autoComplete="new-password"
          {...field('client_secret')}
        />
        <TextField label={p.emailClaim} hint={p.claimHint} {...field('email_claim')} />
        <TextField label={p.nameClaim} hint={p.claimHint} {...field('name_claim')} />
      </div>
      {save.isError && <ErrorAlert title={p.saveFailed} message={save.error.message} />}
      {test.isError && <ErrorAlert title={p.testFailed} message={test.error.message} />}
      {remove.isError && <ErrorAlert title={p.removeFailed} message={remove.error.message} />}
      {mayManage && (
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? p.saving : p.save}
          </Button>
          {hasProvider && (
            <>
              <Button type="button" variant="outline" disabled={test.isPending} onClick={() => void startTest()}>
                <LogIn aria-hidden />
                {test.isPending ? p.testing : p.test}
              </Button>
              <Button type="button" variant="outline" disabled={remove.isPending} onClick={() => setConfirmRemove(true)}>
                <Trash2 aria-hidden />
                {p.remove}
              </Button>
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirmRemove}
        onOpenChange={setConfirmRemove}
        title={p.removeTitle}
        description={p.removeBody}
        confirmLabel={p.remove}
        destructive
        onConfirm={() =>
          remove.mutateAsync().then(
            () => toast.success(p.removed),
            () => {},
          )
        }
      />
    </form>
  );
}
