import { PageHeader } from '@/components/page-header';
import { MESSAGES } from '../wording';
import { AuthenticatorCard } from '../components/authenticator-card';
import { PasskeysCard } from '../components/passkeys-card';
import { SessionsCard } from '../components/sessions-card';

/** /account/security: every signed-in person's own authenticator app, passkeys, recovery codes and sessions. */
export default function SecurityPage() {
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <PageHeader title={MESSAGES.security.title} subtitle={MESSAGES.security.subtitle} titleSize="medium" />
      <AuthenticatorCard />
      <PasskeysCard />
      <SessionsCard />
    </section>
  );
}
