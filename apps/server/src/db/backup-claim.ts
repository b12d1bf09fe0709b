import { connectForBackup } from './backup.ts';

/** The `rate_limits` row whose window is the current scheduled backup's, across every host. */
const KEY = 'backup:scheduled';

/**
 * Scheduled backups of one PostgreSQL database by several hosts: a host whose BACKUP_DIR has
 * one due claims the window of BACKUP_EVERY in the database before taking it. The first claim
 * of a window (its count 1) takes the backup; a claim from another host in the same window
 * counts 2, 3, … and takes none. A backup that fails gives its window back, so the next look
 * of any host tries again; a host that dies while backing up leaves its window claimed, and
 * the next window's backup is the next one taken. Answers the claim, or null when another
 * host has the window.
 */
export async function claimBackupWindow(url: string, everyMs: number): Promise<{ release(): Promise<void> } | null> {
  const client = await connectForBackup(url);
  try {
    const { rows } = await client.query<{ count: number }>(
      `insert into rate_limits (key, count, reset_at) values ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
       on conflict (key) do update set
         count = case when rate_limits.reset_at <= clock_timestamp() then 1 else rate_limits.count + 1 end,
         reset_at = case when rate_limits.reset_at <= clock_timestamp() then excluded.reset_at else rate_limits.reset_at end
       returning count`,
      [KEY, everyMs],
    );
    if (rows[0]!.count !== 1) return null;
  } finally {
    await client.end();
  }
  return {
    async release() {
      const again = await connectForBackup(url);
      try {
        await again.query('delete from rate_limits where key = $1', [KEY]);
      } finally {
        await again.end();
      }
    },
  };
}
