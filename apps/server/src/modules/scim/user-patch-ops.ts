import { MESSAGES, isSingleLineText, isStorableText, scimBooleanSchema, type ScimPatchOperation } from '@console/domain';
import { ScimError } from './errors.ts';
import { parsePath, type PatchPath } from './paths.ts';
import { emailOf, type UserState } from './user-write.ts';

const m = MESSAGES.identity;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

export function booleanOf(name: string, value: unknown): boolean {
  const parsed = scimBooleanSchema.safeParse(value);
  if (!parsed.success) throw new ScimError(400, `${name} must be true or false.`, 'invalidValue');
  return parsed.data;
}

/** A kept text (a name, an external id): null when absent or blank; one line, at most `max` characters. */
export function textOf(name: string, value: unknown, max: number): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new ScimError(400, `${name} must be a string.`, 'invalidValue');
  const text = value.trim();
  if (text.length > max || !isSingleLineText(text) || !isStorableText(text)) {
    throw new ScimError(400, `${name} must be one line of at most ${max} characters.`, 'invalidValue');
  }
  return text === '' ? null : text;
}

/** Attributes the server sets: a change of them is 400 `mutability` (the resource's own id, repeated, is accepted). */
function requireWritable(path: PatchPath, value: unknown, id: string) {
  if (path.attr === 'id' && !path.sub && value === id) return false;
  if (['id', 'meta', 'groups'].includes(path.attr)) throw new ScimError(400, m.scimReadOnly(path.raw), 'mutability');
  return true;
}

function setName(state: UserState, sub: string, value: unknown) {
  if (sub === 'givenname') state.givenName = textOf('name.givenName', value, 100);
  if (sub === 'familyname') state.familyName = textOf('name.familyName', value, 100);
  // formatted, middleName, honorific...: derived or not kept.
}

/** `add` and `replace`: on this server both set the attribute (a person has one e-mail and one name). */
function setAttribute(state: UserState, path: PatchPath, value: unknown, id: string) {
  if (!requireWritable(path, value, id)) return;
  switch (path.attr) {
    case 'active':
      state.active = booleanOf('active', value);
      return;
    case 'username':
      state.email = emailOf(value);
      return;
    case 'externalid':
      state.externalId = textOf('externalId', value, 500);
      return;
    case 'name':
      if (path.sub) return setName(state, path.sub, value);
      if (!isObject(value)) throw new ScimError(400, 'name must be an object.', 'invalidValue');
      for (const [key, sub] of Object.entries(value)) setName(state, key.toLowerCase(), sub);
      return;
    default:
      // displayName is derived from the name; e-mails from userName; other attributes
      // (titles, phone numbers, the enterprise extension) are not kept, and accepted.
      return;
  }
}

function removeAttribute(state: UserState, path: PatchPath, id: string) {
  if (!requireWritable(path, undefined, id)) return;
  switch (path.attr) {
    case 'username':
    case 'active':
      throw new ScimError(400, m.scimRequired(path.raw), 'invalidValue');
    case 'externalid':
      state.externalId = null;
      return;
    case 'name':
      if (!path.sub || path.sub === 'givenname') state.givenName = null;
      if (!path.sub || path.sub === 'familyname') state.familyName = null;
      return;
    default:
      return;
  }
}

/**
 * A PATCH of a person, in both shapes providers send: with a path (`{op: "Replace", path:
 * "active", value: "False"}`) and without (`{op: "replace", value: {active: false}}`, whose
 * keys may themselves be paths such as `name.givenName`). Operations apply in order; any
 * refusal refuses the whole request.
 */
export function patchUser(current: UserState, operations: ScimPatchOperation[], id: string): UserState {
  const state = { ...current };
  for (const operation of operations) {
    if (!operation.path) {
      if (operation.op === 'remove') throw new ScimError(400, m.scimRemoveNeedsPath, 'noTarget');
      if (!isObject(operation.value)) throw new ScimError(400, 'Without a path, value must be an object of attributes.', 'invalidValue');
      for (const [key, value] of Object.entries(operation.value)) setAttribute(state, parsePath(key), value, id);
      continue;
    }
    const path = parsePath(operation.path);
    if (operation.op === 'remove') removeAttribute(state, path, id);
    else setAttribute(state, path, operation.value, id);
  }
  return state;
}
