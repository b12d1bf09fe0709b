import { withFreshPostgres } from '../lib/databases.ts';
import { HTTP_COLUMNS, call, measure, round, signIn } from '../lib/http.ts';
import { BENCH_ADMIN, withServer, withServerOn, type BenchServer } from '../lib/server.ts';
import type { Statement } from '../lib/server-child.ts';
import type { Row, Suite } from '../lib/types.ts';

const CONNECTIONS = 50;
const CHILDREN = 50;

/** The routes measured, with the path each takes on the bare server and the least share of its requests per second aimed at. */
const ROUTES = [
  { key: 'me', name: 'GET /api/users/me', path: '/api/users/me', aim: 0.95 },
  { key: 'list', name: `GET /api/organizations (${CHILDREN} children, page of 50)`, path: '/api/organizations', aim: 0.8 },
] as const;

export const usersMe: Suite = {
  name: 'users-me',
  title: 'Authenticated reads against a bare server',
  about:
    `\`GET /api/users/me\` and \`GET /api/organizations\` (the house's ${CHILDREN} super agencies, first page of 50, ` +
    `with its total) with a bearer token, ${CONNECTIONS} connections: JWT verification, the caller lookup every authenticated ` +
    "request makes (user, organization, frozen ancestor, session), then the route's own queries. On PostgreSQL, beside " +
    'each, on the same database in the same run, the ceiling: a **bare server** (Fastify, a `pg` pool of 20 and `jose`, no ' +
    'plugins, hooks, schemas or query builder) that verifies the same token with jose on every request and runs the very ' +
    "statements the API sent for that route (recorded from the API's driver, with their values; as named prepared statements, " +
    "parsed once per connection), answering every statement's rows as JSON, as the API answers what it read. Both run with 1 process and with 2 (node:cluster, one port, as `CONSOLE_WORKERS=2`). **÷ bare req/s** is " +
    "the API's requests per second over the bare server's with as many processes; **aim** is the least ratio aimed at " +
    `(${ROUTES.map((route) => `${route.name.split(' (')[0]} ${route.aim}`).join(', ')}) and whether this run met it; ` +
    "**CPU × bare** is the API's server CPU per request over the bare server's (every process counted). PGlite has no " +
    'such ceiling: its row is the API alone.',
  columns: [
    ...HTTP_COLUMNS.slice(0, 2),
    { key: 'processes', label: 'processes', format: 'int' },
    ...HTTP_COLUMNS.slice(2),
    { key: 'ratio', label: '÷ bare req/s', format: 'fixed2' },
    { key: 'cpuRatio', label: 'CPU × bare', format: 'fixed2' },
    { key: 'aim', label: 'aim', format: 'text' },
  ],
  async run(context) {
    const durationSeconds = context.durationSeconds ?? 10;
    const rows: Row[] = [];
    const load = (server: BenchServer, name: string, path: string, token: string) =>
      measure(server, {
        name,
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${token}` },
        connections: CONNECTIONS,
        durationSeconds,
      });

    if (context.databases.includes('pglite')) {
      rows.push(
        await withServer('pglite', context, async (server) => {
          context.log(`users/me on ${server.database}`);
          return {
            ...(await load(server, ROUTES[0].name, ROUTES[0].path, await signIn(server, BENCH_ADMIN))),
            processes: 1,
            ratio: null,
            cpuRatio: null,
          };
        }),
      );
    }
    if (!context.databaseUrl) return { status: 'ok', rows };

    const statements: Record<string, Statement[]> = {};
    await withFreshPostgres(context.databaseUrl, async (url) => {
      let token = '';
      const api = async (server: BenchServer) => {
        const measured: Row[] = [];
        for (const route of ROUTES) {
          context.log(`${route.name}, API, ${server.processes} process(es)`);
          measured.push({ ...(await load(server, route.name, route.path, token)), processes: server.processes });
        }
        return measured;
      };
      const apiRows = [
        await withServerOn(url, async (server) => {
          token = await signIn(server, BENCH_ADMIN);
          for (let n = 0; n < CHILDREN; n++) {
            await call(server, 'POST', '/api/organizations', token, {
              name: `Bench agency ${String(n).padStart(2, '0')}`,
              org_type: 'super_agency',
            });
          }
          for (const route of ROUTES) {
            await server.captureStart();
            await call(server, 'GET', route.path, token);
            statements[route.key] = await server.captureStop();
          }
          return api(server);
        }),
        await withServerOn(url, api, { processes: 2 }),
      ];
      const bare = async (server: BenchServer) => {
        const measured: Row[] = [];
        for (const route of ROUTES) {
          context.log(`${route.name}, bare server, ${server.processes} process(es)`);
          const row = await load(
            server,
            `bare Fastify + pg + jose, same ${statements[route.key]!.length} statements as ${route.name}`,
            `/bare/${route.key}`,
            token,
          );
          measured.push({ ...row, processes: server.processes, ratio: 1, cpuRatio: 1 });
        }
        return measured;
      };
      const bareRows = [
        await withServerOn(url, bare, { bare: { statements } }),
        await withServerOn(url, bare, { bare: { statements }, processes: 2 }),
      ];
      for (const [p, apiSet] of apiRows.entries()) {
        for (const [r, row] of apiSet.entries()) {
          const ceiling = bareRows[p]![r]!;
          row.ratio = round(Number(row.rps) / Number(ceiling.rps), 2);
          row.cpuRatio = round(Number(row.cpuMsPerRequest) / Number(ceiling.cpuMsPerRequest), 2);
          const { aim } = ROUTES[r]!;
          row.aim = `≥ ${aim}: ${Number(row.ratio) >= aim ? 'met' : 'not met'}`;
          rows.push(row, ceiling);
        }
      }
    });
    return {
      status: 'ok',
      rows,
      notes: ROUTES.map(
        (route) =>
          `${route.name} sends ${statements[route.key]!.length} statements: ${statements[route.key]!.map((s) => `\`${s.text.replace(/\s+/g, ' ').slice(0, 90)}${s.text.length > 90 ? '…' : ''}\``).join('; ')}.`,
      ),
      details: { statements },
    };
  },
};
