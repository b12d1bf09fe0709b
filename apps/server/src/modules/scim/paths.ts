import { MESSAGES } from '@console/domain';
import { ScimError } from './errors.ts';
import { normalizeAttribute, parseFilter, type Condition } from './filter.ts';

/** A PATCH path: `active`, `name.givenName`, `members[value eq "id"]`, `emails[type eq "work"].value`. */
export interface PatchPath {
  /** The attribute, lower-cased, without the core URN; an extension's attribute keeps its URN. */
  attr: string;
  /** The sub-attribute, lower-cased, if any. */
  sub: string | null;
  /** The value filter in brackets, if any: one comparison on a sub-attribute. */
  filter: Condition | null;
  raw: string;
}

const PATH = /^((?:urn:[\w.:-]+:)?[A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/s;

export function parsePath(raw: string): PatchPath {
  const match = PATH.exec(raw.trim());
  if (!match) throw new ScimError(400, MESSAGES.identity.scimPathInvalid(raw), 'invalidPath');
  const [, attribute, bracket, after] = match;
  const attr = normalizeAttribute(attribute!);
  const sub = after ? after.toLowerCase() : null;
  let filter: Condition | null = null;
  if (bracket) {
    const conditions = (() => {
      try {
        return parseFilter(bracket, ['value', 'type', 'primary', 'display']);
      } catch {
        throw new ScimError(400, MESSAGES.identity.scimPathInvalid(raw), 'invalidPath');
      }
    })();
    if (conditions.length !== 1) throw new ScimError(400, MESSAGES.identity.scimPathInvalid(raw), 'invalidPath');
    filter = conditions[0]!;
  }
  return { attr, sub, filter, raw };
}
