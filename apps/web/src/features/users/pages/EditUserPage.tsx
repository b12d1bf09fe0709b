import { UnavailablePage } from '@/components/unavailable-page';

/** /users/:id/edit. */
export default function EditUserPage() {
  return <UnavailablePage title={'Edit User'} />;
}
