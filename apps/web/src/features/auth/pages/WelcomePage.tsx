import { LINKS, MESSAGES, UI } from '@console/domain';
import { ExternalLink } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { useTheme } from '@/lib/theme';
import { PageLoading } from '@/components/page-loading';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';

export default function WelcomePage() {
  const { status } = useAuth();
  const { theme } = useTheme();
  if (status === 'loading') return <PageLoading className="min-h-screen" />;
  if (status === 'signed-in') return <Navigate to={PATHS.dashboard} replace />;

  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-4xl font-bold tracking-tight">{UI.productName}</h1>
      <p className="text-muted-foreground">Current theme: {theme}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button asChild variant="outline">
          <a href={LINKS.documentation} target="_blank" rel="noopener noreferrer">
            {MESSAGES.welcome.documentation}
            <ExternalLink aria-hidden />
          </a>
        </Button>
        <Button asChild>
          <Link to={PATHS.login}>{MESSAGES.welcome.getStarted}</Link>
        </Button>
      </div>
    </main>
  );
}
