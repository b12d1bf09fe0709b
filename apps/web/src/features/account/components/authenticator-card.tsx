import type { Factors } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { accountQueries, useRegenerateRecoveryCodes, useRemoveTotp } from '@/api/account';
import { formatDate } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { SecurityCard } from './security-card';
import { FactorCodeDialog } from './factor-code-dialog';
import { RecoveryCodesView } from './recovery-codes-view';
import { TotpSetup } from './totp-setup';

const w = MESSAGES.security;

/** What is set up, and the actions on it: Set up when nothing is; Remove and New recovery codes when the app is. */
function FactorsBody({ factors, onCodes }: { factors: Factors; onCodes(codes: string[]): void }) {
  const [settingUp, setSettingUp] = useState(false);
  const remove = useRemoveTotp();
  const regenerate = useRegenerateRecoveryCodes();

  if (settingUp) {
    return (
      <TotpSetup
        onCancel={() => setSettingUp(false)}
        onEnrolled={(codes) => {
          setSettingUp(false);
          toast.success(w.setup.enrolled);
          onCodes(codes);
        }}
      />
    );
  }
  if (!factors.totp.enrolled) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{w.app.notEnrolled}</p>
        <Button onClick={() => setSettingUp(true)}>{w.app.setUp}</Button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="secondary">{w.app.enrolled(formatDate(factors.totp.enrolled_at))}</Badge>
        <span className="text-sm text-muted-foreground">{w.app.recoveryLeft(factors.recovery_codes.left)}</span>
      </div>
      <div className="flex flex-wrap gap-2">
        <FactorCodeDialog
          id="regenerate-code"
          triggerLabel={w.app.newRecoveryCodes}
          title={w.regenerate.title}
          warning={w.regenerate.warning}
          codeLabel={w.regenerate.codeLabel}
          submitLabel={w.regenerate.confirm}
          onSubmit={async (body) => onCodes((await regenerate.mutateAsync(body)).recovery_codes)}
        />
        <FactorCodeDialog
          id="remove-code"
          triggerLabel={w.app.remove}
          title={w.remove.title}
          warning={w.remove.warning}
          codeLabel={w.remove.codeLabel}
          submitLabel={w.remove.confirm}
          onSubmit={async (body) => {
            await remove.mutateAsync(body);
            toast.success(w.remove.removed);
          }}
        />
      </div>
    </div>
  );
}

/** The authenticator app card: its status and recovery codes left, setting it up, removing it, new recovery codes. */
export function AuthenticatorCard() {
  const factors = useQuery(accountQueries.factors());
  // New recovery codes, shown once until the person closes them.
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <SecurityCard icon={ShieldCheck} title={w.app.title}>
      {codes ? (
        <RecoveryCodesView codes={codes} onDone={() => setCodes(null)} />
      ) : factors.isPending ? (
        <LoadingRows rows={['h-6 w-48', 'h-9 w-32']} />
      ) : factors.isError ? (
        <QueryError error={factors.error} title={w.loadFailed} onRetry={factors.refetch} />
      ) : (
        <FactorsBody factors={factors.data} onCodes={setCodes} />
      )}
    </SecurityCard>
  );
}
