import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import { servedDocument } from './build.ts';
import { machineDocument } from './document.ts';

/**
 * `npm run api:generate`: the API document the app serves (built in this process, with the
 * default settings, so its server is APP_URL's default) written to
 * packages/api-client/openapi.json, the machine API's own document to machine.json beside
 * it, and the client's types generated from the first by openapi-typescript to
 * packages/api-client/src/schema.ts. All are committed; a test fails while they differ
 * from what the app serves.
 *
 * `--documents <folder>`: only the two documents, into that folder (what `npm run api:lint` lints).
 */

const CLIENT_DIR = fileURLToPath(new URL('../../../../packages/api-client/', import.meta.url));
export const DOCUMENT_FILE = `${CLIENT_DIR}openapi.json`;
export const MACHINE_DOCUMENT_FILE = `${CLIENT_DIR}machine.json`;
export const TYPES_FILE = `${CLIENT_DIR}src/schema.ts`;

/** The document as committed: two-space JSON with a final newline. */
export const documentText = (document: object): string => `${JSON.stringify(document, null, 2)}\n`;

/** The client's types as committed. */
export async function typesText(document: object): Promise<string> {
  return COMMENT_HEADER + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}

function write(file: string, text: string) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}

async function main(argv: string[]) {
  const document = await servedDocument();
  const only = argv.indexOf('--documents');
  const folder = only >= 0 ? argv[only + 1] : CLIENT_DIR;
  if (!folder) throw new Error('--documents takes a folder');
  write(resolve(folder, 'openapi.json'), documentText(document));
  write(resolve(folder, 'machine.json'), documentText(machineDocument(document)));
  if (only < 0) write(TYPES_FILE, await typesText(document));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
