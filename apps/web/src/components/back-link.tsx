import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export function BackLink({ to, label = 'Back' }: { to: string; label?: string }) {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2">
      <Link to={to}>
        <ArrowLeft aria-hidden />
        {label}
      </Link>
    </Button>
  );
}
