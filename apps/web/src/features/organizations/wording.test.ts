import { describe, expect, it } from 'vitest';
import { MESSAGES } from './wording';

describe("the organizations feature's wording, to the letter", () => {
  it('organizations.failedToCreate', () => {
    expect(MESSAGES.organizations.failedToCreate).toBe('Failed to create organization');
  });
});
