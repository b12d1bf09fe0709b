import { mayOpenDebug } from '@console/domain';
import { Bug, KeyRound, LogOut, Settings, ShieldCheck } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useAuth } from '@/lib/auth';
import { avatarFallback, displayName } from '@/lib/format';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '@/lib/wording';

const { shell, auth } = MESSAGES;

export function ProfileMenu() {
  const { user, signOut } = useAuth();
  const viewer = useViewer();
  const navigate = useNavigate();

  async function handleSignOut() {
    try {
      await signOut();
      toast.success(auth.signedOutTitle, { description: auth.signedOutToast });
      // The sign-in page says the person was signed out too; it returns to no page, as they chose to leave.
      navigate(PATHS.login, { replace: true });
    } catch {
      toast.error(auth.signOutErrorTitle, { description: auth.signOutErrorBody });
    }
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" className="h-10 min-w-0 gap-2 px-2" title={displayName(user)}>
          <Avatar>
            <AvatarFallback className="uppercase">{avatarFallback(user)}</AvatarFallback>
          </Avatar>
          {/* Name and e-mail only from 1024 px: below, beside the sidebar, they would push the header past the window's edge. */}
          <span className="sr-only text-left text-sm leading-tight lg:not-sr-only lg:grid lg:max-w-48">
            <span className="truncate font-medium">{displayName(user)}</span>
            <span className="truncate text-xs text-muted-foreground">{user?.email}</span>
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-56">
        <DropdownMenuLabel className="grid">
          <span className="truncate" title={displayName(user)}>
            {displayName(user)}
          </span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user?.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(PATHS.settings)}>
          <Settings aria-hidden />
          {shell.settings}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(PATHS.updatePassword)}>
          <KeyRound aria-hidden />
          {MESSAGES.authPages.changePassword}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate(PATHS.security)}>
          <ShieldCheck aria-hidden />
          {MESSAGES.security.menuItem}
        </DropdownMenuItem>
        {/* Debug is offered only to those the debug page lets in. */}
        {!!viewer && mayOpenDebug(viewer) && (
          <DropdownMenuItem onSelect={() => navigate(PATHS.debug)}>
            <Bug aria-hidden />
            {shell.debug}
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void handleSignOut()}>
          <LogOut aria-hidden />
          {shell.logOut}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
