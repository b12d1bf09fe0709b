import { describe, expect, it } from 'vitest';
import { MESSAGES } from './wording';

describe("the resources feature's wording, to the letter", () => {
  it('organizations.selectOrganization', () => {
    expect(MESSAGES.organizations.selectOrganization).toBe('Please select an organization to view the dashboard.');
  });
});
