import { UnavailablePage } from '@/components/unavailable-page';

/** {base}/:id/allocate-credits. */
export default function AllocateCreditsPage() {
  return <UnavailablePage title={'Allocate Credits'} />;
}
