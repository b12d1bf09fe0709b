import { describe, expect, it } from 'vitest';
import { errorStatusesOf, type Endpoint } from './contract.ts';
import { API } from './endpoints/index.ts';

const all: Endpoint[] = Object.values(API).flatMap((group) => Object.values(group));

describe('endpoint contract', () => {
  it('names every operation once, in lower camel case', () => {
    const ids = all.map((e) => e.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it('declares every method and path once', () => {
    const keys = all.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('derives the error statuses from the declaration', () => {
    expect(errorStatusesOf(API.machine.reportUsage)).toEqual([400, 401, 403, 413, 429, 503]);
    expect(errorStatusesOf(API.machine.entitlement)).toEqual([400, 401, 403, 429, 503]);
    expect(errorStatusesOf(API.organizations.get)).toEqual([400, 401, 403, 404, 503]);
    expect(errorStatusesOf(API.users.me)).toEqual([401, 503]);
    expect(errorStatusesOf(API.users.updateMe)).toEqual([400, 401, 403, 413, 429, 503]);
    expect(errorStatusesOf(API.auth.signIn)).toEqual([400, 401, 413, 429, 503]);
    expect(errorStatusesOf(API.credits.allocate)).toEqual([400, 401, 403, 404, 409, 413, 422, 429, 503]);
    expect(errorStatusesOf(API.auth.signOut)).toEqual([400, 413, 503]);
  });

  it('gives every operation a 4xx answer but the public reads that take nothing (health, readiness, the public settings)', () => {
    const without = all.filter((e) => !errorStatusesOf(e).some((status) => status >= 400 && status < 500));
    expect(without.map((e) => e.operationId)).toEqual([
      API.health.check.operationId,
      API.health.ready.operationId,
      API.settings.getPublic.operationId,
    ]);
  });

  it('leaves out a status the endpoint answers with its own body', () => {
    expect(errorStatusesOf(API.health.check)).toEqual([]);
  });
});
