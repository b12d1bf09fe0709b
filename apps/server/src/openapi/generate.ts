import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import { servedDocument } from './build.ts';

/**
 * `npm run api:generate`: the API document the app serves (built in this process, with the
 * default settings, so its server is APP_URL's default) written to
 * packages/api-client/openapi.json, and the client's types generated from it by
 * openapi-typescript to packages/api-client/src/schema.ts. Both are committed; a test
 * fails while they differ from what the app serves.
 *
 * `--document <file>`: only the document, to that file (what `npm run api:lint` lints).
 */

const CLIENT_DIR = fileURLToPath(new URL('../../../../packages/api-client/', import.meta.url));
export const DOCUMENT_FILE = `${CLIENT_DIR}openapi.json`;
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
  const only = argv.indexOf('--document');
  if (only >= 0) {
    const file = argv[only + 1];
    if (!file) throw new Error('--document takes a file');
    write(resolve(file), documentText(document));
    return;
  }
  write(DOCUMENT_FILE, documentText(document));
  write(TYPES_FILE, await typesText(document));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
