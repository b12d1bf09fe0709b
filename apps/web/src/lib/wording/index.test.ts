import { MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '.';

describe('the shared wording, to the letter', () => {
  it.each([
    ['auth.signedOutTitle', MESSAGES.auth.signedOutTitle, 'Signed out'],
    ['auth.signedOutBody', MESSAGES.auth.signedOutBody, 'You were signed out. Sign in to continue.'],
    ['auth.signOutErrorTitle', MESSAGES.auth.signOutErrorTitle, 'Error'],
    ['auth.signOutErrorBody', MESSAGES.auth.signOutErrorBody, 'There was an error signing out.'],
    ['auth.accessDenied', MESSAGES.auth.accessDenied, 'Access Denied'],
    // invitation toasts at login
    ['invitationToasts.processing', MESSAGES.invitationToasts.processing, 'Processing invitation...'],
    ['invitationToasts.accepted', MESSAGES.invitationToasts.accepted, 'Invitation accepted'],
    ['invitationToasts.failed', MESSAGES.invitationToasts.failed, 'Failed to accept invitation'],
    ['organizations.permissionDenied', MESSAGES.organizations.permissionDenied, 'Permission Denied'],
    ['organizations.failedToLoad', MESSAGES.organizations.failedToLoad, 'Failed to load organizations'],
    ['organizations.failedToLoadDetails', MESSAGES.organizations.failedToLoadDetails, 'Failed to load organization details'],
    // shell
    ['shell.menuTitle', MESSAGES.shell.menuTitle, 'Menu'],
    ['shell.menuDescription', MESSAGES.shell.menuDescription, 'Navigate through the application'],
    ['shell.nav.dashboard', MESSAGES.shell.nav.dashboard, 'Dashboard'],
    ['shell.nav.organizations', MESSAGES.shell.nav.organizations, 'Organizations'],
    ['shell.nav.team', MESSAGES.shell.nav.team, 'Team'],
    ['shell.nav.resources', MESSAGES.shell.nav.resources, 'Resources'],
    ['shell.nav.creditLedger', MESSAGES.shell.nav.creditLedger, 'Credit Ledger'],
    ['shell.nav.settings', MESSAGES.shell.nav.settings, 'Settings'],
    ['shell.profileFallback', MESSAGES.shell.profileFallback, 'Profile'],
    ['shell.avatarFallback', MESSAGES.shell.avatarFallback, 'AV'],
    ['shell.settings', MESSAGES.shell.settings, 'Settings'],
    ['shell.debug', MESSAGES.shell.debug, 'Debug'],
    ['shell.logOut', MESSAGES.shell.logOut, 'Log out'],
    ['shell.darkMode', MESSAGES.shell.darkMode, 'Dark mode'],
    ['shell.lightMode', MESSAGES.shell.lightMode, 'Light mode'],
    ['welcome.documentation', MESSAGES.welcome.documentation, 'Documentation'],
    ['welcome.getStarted', MESSAGES.welcome.getStarted, 'Get Started'],
  ])('%s', (_key, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('the console reads the domain through its wording', () => {
  it("every group and key of the domain's messages is there unchanged", () => {
    for (const [group, keys] of Object.entries(DOMAIN_MESSAGES)) {
      const merged = (MESSAGES as Record<string, Record<string, unknown>>)[group];
      for (const [key, value] of Object.entries(keys)) expect(merged?.[key], `${group}.${key}`).toBe(value);
    }
  });
});
