import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ORG_STATUSES,
  ORG_TYPES,
  orgTypeWithArticle,
  ORG_TYPE_LABELS,
  canHaveChildren,
  childTypeOf,
  isOrgType,
  levelOf,
  parentTypeOf,
  type OrgType,
} from './hierarchy.ts';

/**
 * The hierarchy is house, then super_agency, then agency, then tenant, and each level creates
 * only the next level down: house creates super_agency, super_agency creates agency, agency
 * creates tenant, tenant creates none.
 */
const HIERARCHY: {
  type: OrgType;
  child: OrgType | null;
  parent: OrgType | null;
  canHaveChildren: boolean;
  level: number;
  label: string;
}[] = [
  { type: 'house', child: 'super_agency', parent: null, canHaveChildren: true, level: 0, label: 'House' },
  { type: 'super_agency', child: 'agency', parent: 'house', canHaveChildren: true, level: 1, label: 'Super Agency' },
  { type: 'agency', child: 'tenant', parent: 'super_agency', canHaveChildren: true, level: 2, label: 'Agency' },
  { type: 'tenant', child: null, parent: 'agency', canHaveChildren: false, level: 3, label: 'Tenant' },
];

describe('ORG_TYPES', () => {
  it('lists the four levels top first (house, super_agency, agency, tenant)', () => {
    expect([...ORG_TYPES]).toEqual(['house', 'super_agency', 'agency', 'tenant']);
  });

  it('has exactly the organization statuses editable in the forms (active, inactive, suspended)', () => {
    expect([...ORG_STATUSES]).toEqual(['active', 'inactive', 'suspended']);
  });
});

describe.each(HIERARCHY)('organization type $type', (row) => {
  it(`has child type ${String(row.child)}`, () => {
    expect(childTypeOf(row.type)).toBe(row.child);
  });

  it(`has parent type ${String(row.parent)}`, () => {
    expect(parentTypeOf(row.type)).toBe(row.parent);
  });

  it(`${row.canHaveChildren ? 'can' : 'cannot'} have children`, () => {
    expect(canHaveChildren(row.type)).toBe(row.canHaveChildren);
  });

  it(`is at depth ${row.level} below the house`, () => {
    expect(levelOf(row.type)).toBe(row.level);
  });

  it(`is labelled ${row.label}`, () => {
    expect(ORG_TYPE_LABELS[row.type]).toBe(row.label);
  });

  it('is recognised by isOrgType', () => {
    expect(isOrgType(row.type)).toBe(true);
  });
});

describe('hierarchy invariants', () => {
  it('a child is always exactly one level down and its parent is the original type', () => {
    for (const type of ORG_TYPES) {
      const child = childTypeOf(type);
      if (child === null) continue;
      expect(levelOf(child)).toBe(levelOf(type) + 1);
      expect(parentTypeOf(child)).toBe(type);
    }
  });

  it('only the house has no parent and only the tenant has no child', () => {
    expect(ORG_TYPES.filter((t) => parentTypeOf(t) === null)).toEqual(['house']);
    expect(ORG_TYPES.filter((t) => childTypeOf(t) === null)).toEqual(['tenant']);
  });

  it('walking down from the house visits every type once, in order', () => {
    const walk: OrgType[] = [];
    let current: OrgType | null = 'house';
    while (current) {
      walk.push(current);
      current = childTypeOf(current);
    }
    expect(walk).toEqual(['house', 'super_agency', 'agency', 'tenant']);
  });
});

describe('isOrgType', () => {
  it.each([['House'], ['superagency'], ['super-agency'], ['agencies'], [' tenant'], [''], ['admin']])('rejects the string %j', (value) => {
    expect(isOrgType(value)).toBe(false);
  });

  it.each([[null], [undefined], [0], [1], [true], [{}], [['house']]])('rejects the non-string %j', (value) => {
    expect(isOrgType(value)).toBe(false);
  });

  it('accepts no arbitrary string other than the four types', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isOrgType(s)).toBe((['house', 'super_agency', 'agency', 'tenant'] as string[]).includes(s));
      }),
    );
  });
});

describe('orgTypeWithArticle', () => {
  it.each([
    ['house', 'a house'],
    ['super_agency', 'a super agency'],
    ['agency', 'an agency'],
    ['tenant', 'a tenant'],
    ['umbrella_group', 'an umbrella group'],
    ['Outpost', 'an Outpost'],
  ])('%s reads "%s"', (type, text) => {
    expect(orgTypeWithArticle(type)).toBe(text);
  });
});
