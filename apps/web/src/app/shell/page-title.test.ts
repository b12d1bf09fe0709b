import { describe, expect, it } from 'vitest';
import { pageTitleOf } from './page-title';
import { MESSAGES } from '@/lib/wording';

const { nav, pageTitles } = MESSAGES.shell;

describe('the page named in the header', () => {
  it.each([
    ['/dashboard', nav.dashboard],
    ['/orgs', nav.organizations],
    ['/organizations', nav.organizations],
    ['/orgs/create', pageTitles.createOrganization],
    ['/orgs/42', pageTitles.organization],
    ['/organizations/42/edit', pageTitles.editOrganization],
    ['/orgs/42/allocate-credits', pageTitles.allocateCredits],
    ['/orgs/42/billing', pageTitles.billing],
    ['/orgs/42/billing-management', pageTitles.billingManagement],
    ['/orgs/42/resources', nav.resources],
    ['/team', nav.team],
    ['/users', pageTitles.users],
    ['/users/create', pageTitles.inviteUser],
    ['/users/7', pageTitles.user],
    ['/users/7/edit', pageTitles.editUser],
    ['/resources', nav.resources],
    ['/credit-ledger', nav.creditLedger],
    ['/activity', nav.activity],
    ['/pricing', nav.pricing],
    ['/settings', nav.settings],
    ['/agent-catalog', MESSAGES.agentPages.catalogTitle],
    ['/debug', pageTitles.debug],
    ['/account/security', MESSAGES.security.title],
    ['/settings/identity', MESSAGES.identityPages.title],
    ['/settings/billing-details', MESSAGES.invoicePages.details.title],
    ['/invoices', MESSAGES.invoicePages.title],
    ['/invoices/7', MESSAGES.invoicePages.title],
    ['/statements', MESSAGES.invoicePages.statements.title],
  ])('%s is %s', (path, title) => {
    expect(pageTitleOf(path)).toBe(title);
  });

  it('names no page it does not know', () => {
    expect(pageTitleOf('/nowhere')).toBeNull();
  });
});
