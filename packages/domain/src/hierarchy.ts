/** The four organization levels, top first. A child is always exactly one level down. */
export const ORG_TYPES = ['house', 'super_agency', 'agency', 'tenant'] as const;
export type OrgType = (typeof ORG_TYPES)[number];

export const ORG_STATUSES = ['active', 'inactive', 'suspended'] as const;
export type OrgStatus = (typeof ORG_STATUSES)[number];

export const ORG_TYPE_LABELS: Record<OrgType, string> = {
  house: 'House',
  super_agency: 'Super Agency',
  agency: 'Agency',
  tenant: 'Tenant',
};

/** An organization type in a sentence, with its article: "a house", "an agency"; an unknown type as it is written. */
export function orgTypeWithArticle(type: string): string {
  const name = isOrgType(type) ? ORG_TYPE_LABELS[type].toLowerCase() : type.replaceAll('_', ' ');
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

export function isOrgType(value: unknown): value is OrgType {
  return typeof value === 'string' && (ORG_TYPES as readonly string[]).includes(value);
}

/** The type a child of `type` must have, or null for a tenant (which has no children). */
export function childTypeOf(type: OrgType): OrgType | null {
  const index = ORG_TYPES.indexOf(type);
  return index < 0 ? null : (ORG_TYPES[index + 1] ?? null);
}

/** The type of the parent of `type`, or null for a house (the root). */
export function parentTypeOf(type: OrgType): OrgType | null {
  const index = ORG_TYPES.indexOf(type);
  return index > 0 ? ORG_TYPES[index - 1]! : null;
}

export function canHaveChildren(type: OrgType): boolean {
  return childTypeOf(type) !== null;
}

/** Depth of a type below the house: house 0 ... tenant 3. */
export function levelOf(type: OrgType): number {
  return ORG_TYPES.indexOf(type);
}
