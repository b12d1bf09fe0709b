import { LINKS, UI } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Link, Navigate } from 'react-router';
import { settingsQueries } from '@/api/settings';
import { PageLoading } from '@/components/page-loading';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/paths';
import { useTheme } from '@/lib/theme';
import { MESSAGES } from '../wording';

const w = MESSAGES.welcome;

export default function WelcomePage() {
  const { status } = useAuth();
  const { theme } = useTheme();
  const settings = useQuery({ ...settingsQueries.public(), enabled: status === 'signed-out' });
  if (status === 'loading') return <PageLoading className="min-h-screen" />;
  if (status === 'signed-in') return <Navigate to={PATHS.dashboard} replace />;

  const documentation = settings.data?.documentation_url ?? null;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 p-6 text-center">
      <h1 className="text-4xl font-bold tracking-tight">{UI.productName}</h1>
      <p className="text-muted-foreground">{w.currentTheme(theme)}</p>
      <div className="flex flex-wrap justify-center gap-3">
        {documentation && (
          <Button asChild variant="outline">
            <a href={documentation} target="_blank" rel="noopener noreferrer">
              {w.documentation}
              <ExternalLink aria-hidden />
            </a>
          </Button>
        )}
        <Button asChild>
          <Link to={PATHS.login}>{w.getStarted}</Link>
        </Button>
      </div>
      {/* Without a documentation site (or while it cannot be read), the API reference is what there is. */}
      {!documentation && !settings.isPending && (
        <p className="text-sm text-muted-foreground">
          {settings.isSuccess && <>{w.noDocumentation} </>}
          <a className="underline underline-offset-4" href={LINKS.apiReference} target="_blank" rel="noopener noreferrer">
            {w.apiReference}
          </a>
        </p>
      )}
    </main>
  );
}
