import { createHash } from 'node:crypto';
import { MESSAGES } from '@console/domain';
import { ScimError } from './errors.ts';

/** A weak entity tag of a resource's representation (its meta.version aside): any change of what the provider reads changes it. */
export function versionOf(representation: unknown): string {
  return `W/"${createHash('sha256').update(JSON.stringify(representation)).digest('base64url').slice(0, 22)}"`;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/**
 * `If-Match` on a change: the resource must still carry one of the tags the provider sent
 * (`*` matches any), else 412 and nothing changes. Weak tags compare by their opaque part.
 */
export function requireMatch(ifMatch: string | string[] | undefined, current: string): void {
  if (ifMatch === undefined) return;
  const tags = [ifMatch]
    .flat()
    .flatMap((value) => value.split(','))
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.length === 0 || tags.includes('*')) return;
  if (!tags.some((tag) => opaque(tag) === opaque(current))) throw new ScimError(412, MESSAGES.identity.scimVersionMismatch);
}
