/**
 * `npm run usage:simulate -- --key oc_... --org <id> --agent <code>`: sends usage events
 * through the public machine API and prints what they charged (see the usage text).
 */
import { simulateMain } from '../apps/server/src/tools/usage-simulate.ts';

process.exitCode = await simulateMain(
  process.argv.slice(2),
  process.env,
  (line) => console.log(line),
  (line) => console.error(line),
);
