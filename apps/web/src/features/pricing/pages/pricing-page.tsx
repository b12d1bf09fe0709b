import { mayManageCatalog } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { pricingQueries } from '@/api/pricing';
import { LoadingRows } from '@/components/loading-rows';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card, CardContent } from '@/components/ui/card';
import { PATHS } from '@/lib/paths';
import { useViewer } from '@/lib/use-viewer';
import { MESSAGES } from '../wording';
import { ChildPricesCard } from '../components/child-prices-card';
import { PriceBookTable } from '../components/price-book-table';
import { PaidHistoryCard } from '../components/paid-history-card';
import { PriceHistoryCard } from '../components/price-history-card';

const p = MESSAGES.pricingPages;

/**
 * /pricing: the own organization's price book (the route lets in only those mayViewPrices
 * allows): per agent type what it pays, what its children pay and its margin, Edit where the
 * server says the viewer may change it, the prices set for single children, and the book's history.
 */
export default function PricingPage() {
  const viewer = useViewer();
  const organizationId = viewer?.organization.id ?? '';
  const book = useQuery({ ...pricingQueries.book(organizationId), enabled: !!organizationId });

  return (
    <section className="space-y-6">
      <PageHeader title={p.title} subtitle={p.subtitle} />
      {book.data?.catalog && (
        <Alert variant="info">
          <Info aria-hidden />
          <AlertDescription>
            <p>
              {p.catalogNote}{' '}
              {viewer && mayManageCatalog(viewer) && (
                <Link to={PATHS.agentCatalog} className="font-medium underline underline-offset-4">
                  {p.openCatalog}
                </Link>
              )}
            </p>
          </AlertDescription>
        </Alert>
      )}
      <Card>
        <CardContent>
          {book.isPending ? (
            <LoadingRows />
          ) : book.isError ? (
            <QueryError error={book.error} title={p.loadFailed} onRetry={book.refetch} />
          ) : book.data.items.length === 0 ? (
            <p className="py-6 text-center text-sm text-muted-foreground">{p.empty}</p>
          ) : (
            <PriceBookTable book={book.data} />
          )}
        </CardContent>
      </Card>
      {book.data && !book.data.catalog && <ChildPricesCard book={book.data} />}
      {organizationId && book.data && !book.data.catalog && <PaidHistoryCard organizationId={organizationId} />}
      {organizationId && <PriceHistoryCard organizationId={organizationId} />}
    </section>
  );
}
