import { UnavailablePage } from '@/components/unavailable-page';

/** /users/create. */
export default function InviteUserPage() {
  return <UnavailablePage title={'Invite Team Member'} />;
}
