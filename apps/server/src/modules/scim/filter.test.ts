import { describe, expect, it } from 'vitest';
import { ScimError } from './errors.ts';
import { parseFilter } from './filter.ts';
import { parsePath } from './paths.ts';
import { patchUser } from './user-patch-ops.ts';
import { patchGroup } from './group-patch-ops.ts';

const USER = ['username', 'externalid', 'emails.value', 'active', 'members.value'];

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ScimError ? `${error.status} ${error.scimType}` : String(error);
  }
  return 'accepted';
};

describe('filters', () => {
  it('reads eq comparisons joined by and, value paths, URNs, any case, escaped strings', () => {
    expect(parseFilter('userName eq "ann@x.test"', USER)).toEqual([{ attr: 'username', value: 'ann@x.test' }]);
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:userName EQ "a" AND active eq TRUE', USER)).toEqual([
      { attr: 'username', value: 'a' },
      { attr: 'active', value: true },
    ]);
    expect(parseFilter('members[value eq "id-1"]', USER)).toEqual([{ attr: 'members.value', value: 'id-1' }]);
    expect(parseFilter('externalId eq "a \\"quoted\\" b"', USER)).toEqual([{ attr: 'externalid', value: 'a "quoted" b' }]);
    expect(parseFilter('emails.value eq null', USER)).toEqual([{ attr: 'emails.value', value: null }]);
  });

  it('refuses everything else with 400 invalidFilter', () => {
    for (const filter of [
      'userName ne "a"',
      'userName eq "a" or active eq true',
      'not (userName eq "a")',
      'title eq "x"',
      'userName eq "unterminated',
      'userName eq a',
      'userName eq "a" and',
      'userName pr',
      '',
    ]) {
      expect(
        refusal(() => parseFilter(filter, USER)),
        filter,
      ).toBe('400 invalidFilter');
    }
  });
});

describe('PATCH paths', () => {
  it('reads attributes, sub-attributes, value filters and extension URNs', () => {
    expect(parsePath('name.givenName')).toMatchObject({ attr: 'name', sub: 'givenname', filter: null });
    expect(parsePath('emails[type eq "work"].value')).toMatchObject({
      attr: 'emails',
      sub: 'value',
      filter: { attr: 'type', value: 'work' },
    });
    expect(parsePath('members[value eq "x"]')).toMatchObject({ attr: 'members', sub: null, filter: { attr: 'value', value: 'x' } });
    expect(parsePath('urn:ietf:params:scim:schemas:core:2.0:User:active')).toMatchObject({ attr: 'active' });
    expect(parsePath('urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department').attr).toMatch(/^urn:/);
    for (const bad of ['name[', 'a b', 'members[value ne "x"]', '.name'])
      expect(
        refusal(() => parsePath(bad)),
        bad,
      ).toBe('400 invalidPath');
  });

  it('applies operations in order; one refusal refuses them all', () => {
    const state = { email: 'a@x.test', givenName: 'A', familyName: null, externalId: null, active: true };
    expect(
      patchUser(
        state,
        [
          { op: 'replace', value: { active: 'false', name: { givenName: 'B' } } },
          { op: 'add', path: 'externalId', value: 'e1' },
          { op: 'replace', path: 'active', value: true },
        ],
        'id',
      ),
    ).toEqual({ ...state, givenName: 'B', externalId: 'e1', active: true });
    expect(refusal(() => patchUser(state, [{ op: 'replace', path: 'meta.version', value: 'x' }], 'id'))).toBe('400 mutability');
    expect(refusal(() => patchUser(state, [{ op: 'replace', path: 'name.givenName', value: 'x'.repeat(101) }], 'id'))).toBe(
      '400 invalidValue',
    );
    const group = { displayName: 'G', externalId: null, members: ['a', 'b'] };
    expect(patchGroup(group, [{ op: 'add', path: 'members', value: [{ value: 'b' }, { value: 'c' }] }], 'g').members).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(patchGroup(group, [{ op: 'replace', path: 'members', value: [{ value: 'c' }] }], 'g').members).toEqual(['c']);
    expect(patchGroup(group, [{ op: 'remove', path: 'members' }], 'g').members).toEqual([]);
    expect(refusal(() => patchGroup(group, [{ op: 'remove', path: 'displayName' }], 'g'))).toBe('400 invalidValue');
  });
});
