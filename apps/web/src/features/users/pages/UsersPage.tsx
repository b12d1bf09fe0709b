import { UnavailablePage } from '@/components/unavailable-page';

/** /users. */
export default function UsersPage() {
  return <UnavailablePage title={'Users'} />;
}
