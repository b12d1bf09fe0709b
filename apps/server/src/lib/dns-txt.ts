import { Resolver } from 'node:dns/promises';

/** What a TXT lookup found: the records' texts (each record's strings joined), or why there are none. */
export type TxtLookup = { found: string[] } | { failed: string };

/** Codes that mean the name simply has no TXT record (yet), rather than a lookup that broke. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * Looks up the TXT records of `name` at the configured servers (`address` or `address:port`;
 * none: the machine's resolver). One try with a short timeout: an admin waits on the answer,
 * and a name that does not answer now is checked again when they press Verify.
 */
export async function lookupTxt(name: string, servers: readonly string[]): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  if (servers.length > 0) resolver.setServers([...servers]);
  try {
    const records = await resolver.resolveTxt(name);
    return { found: records.map((strings) => strings.join('')) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NO_RECORD.has(code)) return { found: [] };
    return { failed: code || 'no answer' };
  }
}
