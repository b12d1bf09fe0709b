import { MESSAGES, type ScimPatchOperation } from '@console/domain';
import { ScimError } from './errors.ts';
import { textOf as filterText } from './filter.ts';
import { parsePath, type PatchPath } from './paths.ts';
import { textOf } from './user-patch-ops.ts';

const m = MESSAGES.identity;

export interface GroupState {
  displayName: string;
  externalId: string | null;
  /** Member ids, each once, in the order they came. */
  members: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `[{value: id}, ...]` or one `{value: id}`: the ids. */
export function memberIdsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (!isObject(item) || typeof item.value !== 'string' || item.value.trim() === '') {
      throw new ScimError(400, 'Each member must be an object with a "value" (the person\'s id).', 'invalidValue');
    }
    return item.value.trim();
  });
}

export function displayNameOf(value: unknown): string {
  const name = textOf('displayName', value, 200);
  if (name === null) throw new ScimError(400, m.scimRequired('displayName'), 'invalidValue');
  return name;
}

const unique = (ids: string[]) => [...new Set(ids)];

function setAttribute(state: GroupState, path: PatchPath, value: unknown, op: 'add' | 'replace', id: string) {
  if (path.attr === 'id' && value === id) return;
  if (path.attr === 'id' || path.attr === 'meta') throw new ScimError(400, m.scimReadOnly(path.raw), 'mutability');
  switch (path.attr) {
    case 'displayname':
      state.displayName = displayNameOf(value);
      return;
    case 'externalid':
      state.externalId = textOf('externalId', value, 500);
      return;
    case 'members':
      if (path.filter || path.sub) throw new ScimError(400, m.scimPathInvalid(path.raw), 'invalidPath');
      state.members = op === 'add' ? unique([...state.members, ...memberIdsOf(value)]) : unique(memberIdsOf(value ?? []));
      return;
    default:
      return;
  }
}

function removeAttribute(state: GroupState, path: PatchPath, value: unknown) {
  switch (path.attr) {
    case 'id':
    case 'meta':
      throw new ScimError(400, m.scimReadOnly(path.raw), 'mutability');
    case 'displayname':
      throw new ScimError(400, m.scimRequired('displayName'), 'invalidValue');
    case 'externalid':
      state.externalId = null;
      return;
    case 'members': {
      if (path.sub) throw new ScimError(400, m.scimPathInvalid(path.raw), 'invalidPath');
      if (path.filter) {
        // `members[value eq "id"]` (Okta): that member; a filter on anything else is not understood.
        const memberId = path.filter.attr === 'value' ? filterText(path.filter.value) : null;
        if (memberId === null) throw new ScimError(400, m.scimPathInvalid(path.raw), 'invalidPath');
        state.members = state.members.filter((member) => member !== memberId);
        return;
      }
      // With a value (Entra): those members; without, every member.
      const leaving = value === undefined || value === null ? null : new Set(memberIdsOf(value));
      state.members = leaving ? state.members.filter((member) => !leaving.has(member)) : [];
      return;
    }
    default:
      return;
  }
}

/**
 * A PATCH of a group: rename, external id, and members added, replaced or removed, in the
 * shapes Okta and Entra send (`members[value eq "id"]` or a value list). A member who is not
 * a member is removed without complaint; one added twice is a member once.
 */
export function patchGroup(current: GroupState, operations: ScimPatchOperation[], id: string): GroupState {
  const state: GroupState = { ...current, members: [...current.members] };
  for (const operation of operations) {
    if (!operation.path) {
      if (operation.op === 'remove') throw new ScimError(400, m.scimRemoveNeedsPath, 'noTarget');
      if (!isObject(operation.value)) throw new ScimError(400, 'Without a path, value must be an object of attributes.', 'invalidValue');
      for (const [key, value] of Object.entries(operation.value)) setAttribute(state, parsePath(key), value, operation.op, id);
      continue;
    }
    const path = parsePath(operation.path);
    if (operation.op === 'remove') removeAttribute(state, path, operation.value);
    else setAttribute(state, path, operation.value, operation.op, id);
  }
  return state;
}
