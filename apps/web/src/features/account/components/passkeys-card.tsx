import type { Passkey } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { accountQueries } from '@/api/account';
import { formatDate, formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { SecurityCard } from './security-card';
import { PasskeyAddDialog } from './passkey-add-dialog';
import { RemovePasskeyDialog, RenamePasskeyDialog } from './passkey-actions';
import { RecoveryCodesView } from './recovery-codes-view';

const w = MESSAGES.security.passkeys;

/** One passkey: its name, when it was added and last used; Rename and Remove. */
function PasskeyRow({ passkey }: { passkey: Passkey }) {
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0 space-y-1">
        <span className="font-medium wrap-anywhere">{passkey.name}</span>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-muted-foreground">
          <dt>{w.addedOn}</dt>
          <dd>{formatDate(passkey.created_at)}</dd>
          <dt>{w.lastUsed}</dt>
          <dd>{passkey.last_used_at ? formatDateTime(passkey.last_used_at) : w.never}</dd>
        </dl>
      </div>
      <div className="flex flex-wrap gap-2">
        <RenamePasskeyDialog passkey={passkey} />
        <RemovePasskeyDialog passkey={passkey} />
      </div>
    </li>
  );
}

/** The person's passkeys: the list, adding one (with the browser's prompt), renaming and removing. */
export function PasskeysCard() {
  const passkeys = useQuery(accountQueries.passkeys());
  // Recovery codes a first passkey gave, shown once until the person closes them.
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <SecurityCard icon={KeyRound} title={w.title} description={w.description} contentClassName="space-y-2">
      {codes ? (
        <RecoveryCodesView codes={codes} onDone={() => setCodes(null)} />
      ) : passkeys.isPending ? (
        <LoadingRows rows={['h-6 w-48', 'h-9 w-32']} />
      ) : passkeys.isError ? (
        <QueryError error={passkeys.error} title={MESSAGES.security.loadFailed} onRetry={passkeys.refetch} />
      ) : (
        <>
          {passkeys.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">{w.none}</p>
          ) : (
            <ul className="divide-y" aria-label={w.title}>
              {passkeys.data.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} />
              ))}
            </ul>
          )}
          <PasskeyAddDialog onCodes={setCodes} />
        </>
      )}
    </SecurityCard>
  );
}
