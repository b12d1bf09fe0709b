import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { PATHS } from '@/lib/paths';
import { MESSAGES } from '@/lib/wording';

export default function NotFoundPage() {
  return (
    <section className="space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{MESSAGES.generic.notFound}</h1>
      <p className="text-muted-foreground">There is no page at this address.</p>
      <Button asChild variant="outline">
        <Link to={PATHS.dashboard}>Go to the {MESSAGES.shell.nav.dashboard}</Link>
      </Button>
    </section>
  );
}
