import { MESSAGES, SCIM_SCHEMA } from '@console/domain';
import { ScimError } from './errors.ts';

export type FilterValue = string | number | boolean | null;

/** One `attribute eq value` comparison; the attribute lower-cased, without its schema's URN. */
export interface Condition {
  attr: string;
  value: FilterValue;
}

const CORE_PREFIXES = [SCIM_SCHEMA.user, SCIM_SCHEMA.group].map((urn) => `${urn.toLowerCase()}:`);

/** An attribute path as the server compares it: lower-cased (SCIM names are case-insensitive), the core URN left out. */
export function normalizeAttribute(path: string): string {
  const lower = path.toLowerCase();
  const prefix = CORE_PREFIXES.find((p) => lower.startsWith(p));
  return prefix ? lower.slice(prefix.length) : lower;
}

class Scanner {
  private at = 0;
  private readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  skipSpace() {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }
  done() {
    this.skipSpace();
    return this.at >= this.text.length;
  }
  take(pattern: RegExp): string | null {
    this.skipSpace();
    const match = pattern.exec(this.text.slice(this.at));
    if (!match || match.index !== 0) return null;
    this.at += match[0].length;
    return match[0];
  }
}

const ATTRIBUTE = /^(?:urn:[\w.:-]+:)?[A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?/;
const VALUE = /^(?:"(?:[^"\\]|\\.)*"|true\b|false\b|null\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/i;

function literal(text: string): FilterValue {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'null') return JSON.parse(lower) as FilterValue;
  return JSON.parse(text) as FilterValue;
}

/**
 * Parses the filters this server answers: `attr eq value` comparisons joined by `and`, where
 * an attribute may be a value path `members[value eq "..."]`. Anything else (`or`, `ne`,
 * `co`, `pr`, parentheses, `not`) is 400 `invalidFilter`, naming what is supported.
 * `supported` lists the attributes the resource filters on (lower-cased); another one is
 * refused too, the message naming them as `shown`.
 */
export function parseFilter(text: string, supported: readonly string[], shown = supported.join(', ')): Condition[] {
  const refuse = () => new ScimError(400, MESSAGES.identity.scimFilterUnsupported(shown), 'invalidFilter');
  if (text.length > 1000) throw refuse();
  const scanner = new Scanner(text);
  const conditions: Condition[] = [];
  do {
    const attribute = scanner.take(ATTRIBUTE);
    if (!attribute) throw refuse();
    let attr = normalizeAttribute(attribute);
    if (scanner.take(/^\[/)) {
      const inner = scanner.take(ATTRIBUTE);
      if (!inner || !scanner.take(/^eq\b/i)) throw refuse();
      const value = scanner.take(VALUE);
      if (value === null || !scanner.take(/^\]/)) throw refuse();
      attr = `${attr}.${inner.toLowerCase()}`;
      conditions.push({ attr, value: literal(value) });
    } else {
      if (!scanner.take(/^eq\b/i)) throw refuse();
      const value = scanner.take(VALUE);
      if (value === null) throw refuse();
      conditions.push({ attr, value: literal(value) });
    }
    if (!supported.includes(attr)) throw refuse();
  } while (!scanner.done() && scanner.take(/^and\b/i));
  if (!scanner.done()) throw refuse();
  return conditions;
}

/** The value of a comparison as text (ids, names, e-mails); a non-text value matches nothing. */
export const textOf = (value: FilterValue): string | null => (typeof value === 'string' ? value : null);
