import { UnavailablePage } from '@/components/unavailable-page';

/** /users/:id. */
export default function UserDetailPage() {
  return <UnavailablePage title={'User'} />;
}
