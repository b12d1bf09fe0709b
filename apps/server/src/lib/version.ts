import { readFileSync } from 'node:fs';

/** The console's release: the root package.json's semver version (CHANGELOG.md says what each changed). */
export const CONSOLE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
