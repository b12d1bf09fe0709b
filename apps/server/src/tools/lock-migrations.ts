// `npm run db:lock-migrations`: adds the checksum of each new migration to
// migrations/checksums.sha256, then checks the lock against the files and against its own
// history in git. `--check` only checks. Exits 1 on a problem.
import { checkLock, checkLockHistory, lockNewMigrations } from '../db/migration-lock.ts';

const added = process.argv.includes('--check') ? [] : lockNewMigrations();
for (const file of added) console.log(`Locked ${file}`);
const problems = [...checkLock(), ...(checkLockHistory() ?? [])];
for (const problem of problems) console.error(problem);
if (problems.length) process.exitCode = 1;
else console.log('Migrations match their locked checksums.');
