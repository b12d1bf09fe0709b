import { sql } from 'kysely';
import type { Database } from '../db/connection.ts';

/**
 * Everything about a database's schema that the code relies on, as comparable text: columns
 * (type, nullability, default), constraints, indexes, functions (arguments, result, volatility
 * and a digest of the body), triggers and composite types. Two databases with equal
 * fingerprints behave alike, whatever path of migrations built them.
 */
export async function schemaFingerprint(database: Database): Promise<Record<string, string[]>> {
  const lines = async (query: ReturnType<typeof sql<{ line: string }>>) => (await query.execute(database.db)).rows.map((r) => r.line);
  return {
    columns: await lines(sql`
      select table_name || '.' || column_name || ' ' || data_type || coalesce('(' || numeric_precision || ',' || numeric_scale || ')', '')
             || case when is_nullable = 'NO' then ' not null' else '' end || coalesce(' default ' || column_default, '') as line
      from information_schema.columns where table_schema = current_schema() order by 1`),
    constraints: await lines(sql`
      select c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) as line
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = current_schema() and c.conrelid <> 0 order by 1`),
    indexes: await lines(sql`select indexdef as line from pg_indexes where schemaname = current_schema() order by indexname`),
    functions: await lines(sql`
      select p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || pg_get_function_result(p.oid)
             || ' ' || p.provolatile::text || ' ' || md5(p.prosrc) as line
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema() order by 1`),
    triggers: await lines(sql`
      select pg_get_triggerdef(t.oid) as line from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and not t.tgisinternal order by 1`),
    types: await lines(sql`
      select t.typname || ' ' || string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' order by a.attnum) as line
      from pg_type t join pg_namespace n on n.oid = t.typnamespace join pg_class c on c.oid = t.typrelid and c.relkind = 'c'
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0
      where n.nspname = current_schema() group by t.typname order by 1`),
  };
}
