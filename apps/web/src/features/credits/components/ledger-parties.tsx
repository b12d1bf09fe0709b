import type { LedgerEntry } from '@console/domain';
import { Link } from 'react-router';
import { ledgerHref } from '@/lib/paths';

/** Who moved the credits: the person's name, with the e-mail on hover; "Metered usage" for a key's consumption. */
export function LedgerActor({ entry }: { entry: LedgerEntry }) {
  if (entry.actor) return <span title={entry.actor.email}>{entry.actor.name}</span>;
  return <span className="text-muted-foreground">{entry.entry_type === 'consumption' ? 'Metered usage' : '—'}</span>;
}

/** The other organization of an allocation, linked to its ledger when the viewer may open it. */
export function LedgerCounterparty({ entry }: { entry: LedgerEntry }) {
  const other = entry.counterparty;
  if (!other) return <span className="text-muted-foreground">—</span>;
  if (!other.in_scope) return <span>{other.name}</span>;
  return (
    <Link className="underline underline-offset-4" to={ledgerHref(other.id)}>
      {other.name}
    </Link>
  );
}
