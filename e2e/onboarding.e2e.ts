import { beforeAll, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { ADMIN, createChild, inviteAndRegister, mailedLink, signInWithForm, useJourney } from './harness.ts';
import { MESSAGES } from './wording.ts';

/** An agency admin invites a user, who registers from the link; a revoked link says why. */

const PASSWORD = 'onboarding password 1';

const journey = useJourney();
let adminToken: string;

beforeAll(async () => {
  adminToken = await journey.server.signIn(ADMIN.email, ADMIN.password);
});

/** The newest mailed link to an address: an invitation link. */
async function linkFor(email: string): Promise<string> {
  const link = await mailedLink(journey.server, adminToken, email);
  expect(link).toMatch(/\/invitation\?token=.+/);
  return link;
}

// Three accounts are set up and two browsers run: more than the default minute on a busy machine.
it('an agency admin invites a user who registers from the link; a revoked link shows why', { timeout: 150_000 }, async () => {
  const { server } = journey;
  // Setup through the API: house → super agency → agency, each with an admin.
  const superAgency = await createChild(server, adminToken, 'Summit Super Agency', 'super_agency');
  const superAdminToken = await inviteAndRegister(server, {
    inviterToken: adminToken,
    houseToken: adminToken,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: 'super@example.test',
    password: PASSWORD,
  });
  const agencyName = 'Harbor Agency';
  const agency = await createChild(server, superAdminToken, agencyName, 'agency');
  const agencyId = agency.id;
  const agencyAdminToken = await inviteAndRegister(server, {
    inviterToken: superAdminToken,
    houseToken: adminToken,
    organizationId: agencyId,
    role: 'agency_admin',
    email: 'agency.admin@example.test',
    password: PASSWORD,
  });

  // The agency admin invites a user through the console.
  const admin = (await journey.openBrowser()).page;
  await signInWithForm(admin, server, 'agency.admin@example.test', PASSWORD);
  await admin.goto(server.url('/users/create'));
  await admin.getByText(`Adding user to ${agencyName}`).waitFor();
  await expectAccessible(admin, 'invite form');
  await admin.getByLabel('Email', { exact: true }).fill('new.member@example.test');
  await admin.getByLabel('First name', { exact: true }).fill('Nora');
  await admin.getByLabel('Last name', { exact: true }).fill('Member');
  await admin.getByLabel('Role', { exact: true }).selectOption('agency_user');
  await admin.getByRole('button', { name: 'Send Invitation' }).click();
  // The list opens on Pending, where the invitation just sent is listed.
  await admin.waitForURL(`**/users?organization_id=${agencyId}&status=pending`);
  await admin.getByText(MESSAGES.teamPages.invitationSent).first().waitFor();

  // The invitee opens the mailed link in another browser, registers and lands signed in.
  const link = await linkFor('new.member@example.test');
  const invitee = (await journey.openBrowser({ width: 375, height: 740 })).page;
  await invitee.goto(link);
  const email = invitee.getByLabel('Email', { exact: true });
  await email.waitFor();
  expect(await email.inputValue()).toBe('new.member@example.test');
  await expectAccessible(invitee, 'invitation registration at 375 px');
  await invitee.getByLabel('Password', { exact: true }).fill('member password 1');
  await invitee.getByLabel('Confirm password', { exact: true }).fill('member password 1');
  await invitee.getByRole('button', { name: 'Create Account & Accept' }).click();
  await invitee.getByText(MESSAGES.teamPages.acceptJoined(agencyName)).waitFor();
  await invitee.waitForURL('**/dashboard', { timeout: 10_000 });
  await invitee.getByRole('heading', { level: 1, name: agencyName }).waitFor();
  const members = await server.api<{ users: { email: string; role: string; status: string }[] }>(`/api/users?organization_id=${agencyId}`, {
    token: agencyAdminToken,
  });
  expect(members.body.users).toContainEqual(
    expect.objectContaining({ email: 'new.member@example.test', role: 'agency_user', status: 'active' }),
  );

  // Another invitation, revoked by the agency admin in the console.
  const second = await server.api('/api/invitations', {
    method: 'POST',
    token: agencyAdminToken,
    body: { email: 'second@example.test', first_name: 'Sam', last_name: 'Second', role: 'agency_user' },
  });
  expect(second.status).toBe(201);
  const revokedLink = await linkFor('second@example.test');
  await admin.goto(server.url('/team'));
  await admin.getByRole('tab', { name: MESSAGES.teamPages.tabInvitations }).click();
  await admin.getByRole('button', { name: 'Actions for second@example.test' }).click();
  await admin.getByRole('menuitem', { name: MESSAGES.teamPages.revoke }).click();
  const dialog = admin.getByRole('alertdialog');
  await dialog.getByText(MESSAGES.invitations.revokeConfirm('second@example.test')).waitFor();
  await expectAccessible(admin, 'revoke invitation dialog');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await admin.getByText(MESSAGES.invitations.revokedToast).first().waitFor();
  await admin.getByText(MESSAGES.invitations.empty).waitFor();

  // Its link now shows the error state with the reason.
  await invitee.goto(revokedLink);
  await invitee.getByText(MESSAGES.invitations.revoked).waitFor();
  await invitee.getByText(MESSAGES.teamPages.technicalDetails).click();
  await invitee.getByText('invitation_revoked').waitFor();
  await expectAccessible(invitee, 'revoked invitation link');
  await invitee.getByRole('link', { name: MESSAGES.teamPages.goToLogin }).waitFor();
});
