import { HTTP_COLUMNS, measure, signIn } from '../lib/http.ts';
import { BENCH_ADMIN, withServer } from '../lib/server.ts';
import type { Row, Suite } from '../lib/types.ts';

export const usersMe: Suite = {
  name: 'users-me',
  title: 'Authenticated read',
  about:
    '`GET /api/users/me` with a bearer token, 50 connections: JWT verification, the caller ' +
    'lookup every authenticated request makes (user, organization, session), then the profile ' +
    'query. A baseline for every authenticated read.',
  columns: HTTP_COLUMNS,
  async run(context) {
    const rows: Row[] = [];
    for (const kind of context.databases) {
      rows.push(
        await withServer(kind, context, async (server) => {
          context.log(`users/me on ${server.database}`);
          const token = await signIn(server, BENCH_ADMIN);
          return measure(server, {
            name: 'GET /api/users/me',
            method: 'GET',
            path: '/api/users/me',
            headers: { authorization: `Bearer ${token}` },
            connections: 50,
            durationSeconds: context.durationSeconds ?? 10,
          });
        }),
      );
    }
    return { status: 'ok', rows };
  },
};
