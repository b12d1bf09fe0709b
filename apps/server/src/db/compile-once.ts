import type { Compilable, CompiledQuery } from 'kysely';
import { preparedStatement } from './connection.ts';

/** Marks a stand-in value: no parameter the builders hold otherwise starts with NUL. */
const SLOT = '\u0000';

/**
 * A query that runs on many requests, built and compiled to SQL once: `build` receives a
 * stand-in for each value it reads from its argument, and each run only binds the real values
 * in their place (Kysely would otherwise rebuild and recompile the tree every time). Its text
 * is registered with preparedStatement(), so on PostgreSQL each connection parses it once.
 *
 * The text must depend only on what `build` closes over, never on the values: a value is to
 * be passed to the builder as is (a derived one, such as a `like` pattern, is a value of its
 * own), and must be a single parameter (not a list that `in` expands).
 */
export function compileOnce<V extends object, R>(build: (values: V) => Compilable<R>): (values: V) => CompiledQuery<R> {
  const read = new Set<string>();
  const slots = new Proxy({} as V, {
    get: (_target, key) => {
      read.add(String(key));
      return `${SLOT}${String(key)}`;
    },
  });
  const compiled = build(slots).compile();
  const bound = compiled.parameters.map((p) => {
    if (typeof p !== 'string' || !p.includes(SLOT)) return undefined;
    const key = p.slice(SLOT.length);
    // A stand-in changed on its way into the query (a pattern built from it) would be sent as is.
    if (!p.startsWith(SLOT) || !read.has(key)) throw new Error(`compileOnce: the parameter ${JSON.stringify(p)} is derived from a value`);
    return key as keyof V;
  });
  preparedStatement(compiled.sql);
  return (values) => ({ ...compiled, parameters: bound.map((key, i) => (key === undefined ? compiled.parameters[i] : values[key])) });
}
