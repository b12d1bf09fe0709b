import { mayChangePersonStatus, mayEditPerson, roleLabel, type Invitation, type PersonFacts, type UserProfile } from '@console/domain';
import { Eye, Pencil, UserX, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useDeactivateUser } from '@/api/users';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { StackedCard } from '@/components/stacked-card';
import { TruncatedText } from '@/components/truncated-text';
import { Button } from '@/components/ui/button';
import { TableCell, TableRow } from '@/components/ui/table';
import { UserStatusBadge } from '@/components/users/user-status-badge';
import { announce } from '@/lib/announce';
import { formatDateTime } from '@/lib/dates';
import { fullName } from '@/lib/format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { RevokeDialog } from './revoke-dialog';

// The rows of the users panel: a person or a pending invitation, each with the actions the viewer may take.

/** A row of the table, or a card when stacked (narrow screens). */
export function UserRow({ user, person, stacked = false }: { user: UserProfile; person: PersonFacts; stacked?: boolean }) {
  const viewer = useViewer();
  const name = fullName(user);
  const label = name || user.email;
  const actions = (
    <>
      <Button asChild variant="ghost" size="icon" aria-label={`View ${label}`}>
        <Link to={`${PATHS.users}/${user.id}`}>
          <Eye aria-hidden />
        </Link>
      </Button>
      {!!viewer && mayEditPerson(viewer, person) && (
        <Button asChild variant="ghost" size="icon" aria-label={`Edit ${label}`}>
          <Link to={`${PATHS.users}/${user.id}/edit`}>
            <Pencil aria-hidden />
          </Link>
        </Button>
      )}
      {!!viewer && mayChangePersonStatus(viewer, person) && <DeactivateButton user={user} label={label} />}
    </>
  );
  if (stacked) {
    return (
      <StackedCard
        title={<span title={label}>{label}</span>}
        fields={[
          { label: 'Email', value: user.email },
          { label: 'Role', value: roleLabel(user.role) },
          { label: 'Status', value: <UserStatusBadge status={user.status} /> },
          { label: 'Created', value: formatDateTime(user.created_at) },
        ]}
        actions={actions}
      />
    );
  }
  return (
    <TableRow>
      <TableCell className="max-w-64">
        <TruncatedText text={name} className="font-medium" />
      </TableCell>
      <TableCell className="max-w-72">
        <TruncatedText text={user.email} />
      </TableCell>
      {/* The role and the date may wrap, so that beside the sidebar the six columns fit without scrolling. */}
      <TableCell className="min-w-24 whitespace-normal">{roleLabel(user.role)}</TableCell>
      <TableCell>
        <UserStatusBadge status={user.status} />
      </TableCell>
      <TableCell className="min-w-28 whitespace-normal">{formatDateTime(user.created_at)}</TableCell>
      <TableCell>
        <div className="flex justify-end gap-1">{actions}</div>
      </TableCell>
    </TableRow>
  );
}

function DeactivateButton({ user, label }: { user: UserProfile; label: string }) {
  const deactivate = useDeactivateUser();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Deactivate ${label}`}
        disabled={user.status === 'inactive' || deactivate.isPending}
        onClick={() => setOpen(true)}
      >
        <UserX aria-hidden />
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title="Deactivate user"
        description={MESSAGES.users.deactivateConfirm(label)}
        confirmLabel="Deactivate"
        destructive
        onConfirm={() => announce(deactivate.mutateAsync(user.id), MESSAGES.users.deactivated, MESSAGES.users.deactivateFailed)}
      />
    </>
  );
}

export function InvitationRow({ invitation, manage, stacked = false }: { invitation: Invitation; manage: boolean; stacked?: boolean }) {
  if (stacked) {
    return (
      <StackedCard
        title={invitation.email}
        fields={[
          { label: 'Role', value: roleLabel(invitation.role) },
          { label: 'Status', value: <UserStatusBadge status="pending" /> },
          { label: 'Invited', value: formatDateTime(invitation.created_at) },
        ]}
        actions={manage ? <RevokeButton invitation={invitation} /> : undefined}
      />
    );
  }
  return (
    <TableRow>
      {/* Pending invitations have no names yet; the invitation date is the row's invited_at. */}
      <TableCell title={`Invited ${formatDateTime(invitation.created_at)}`} />
      <TableCell>{invitation.email}</TableCell>
      <TableCell>{roleLabel(invitation.role)}</TableCell>
      <TableCell>
        <UserStatusBadge status="pending" />
      </TableCell>
      <TableCell>{formatDateTime(invitation.created_at)}</TableCell>
      <TableCell>
        <div className="flex justify-end gap-1">{manage && <RevokeButton invitation={invitation} />}</div>
      </TableCell>
    </TableRow>
  );
}

function RevokeButton({ invitation }: { invitation: Invitation }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="icon" aria-label={`Revoke invitation for ${invitation.email}`} onClick={() => setOpen(true)}>
        <XCircle aria-hidden />
      </Button>
      <RevokeDialog invitation={invitation} open={open} onOpenChange={setOpen} />
    </>
  );
}
