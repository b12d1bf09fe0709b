import pg from 'pg';

/** One PostgreSQL server of a multi-host URL. */
export interface HostPort {
  host: string;
  port: number;
}

/**
 * A URL naming several servers (`postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`,
 * as libpq writes it): the servers in the order they are tried, whether only a server that
 * accepts writes will do, and a one-server URL (the first) carrying everything else (user,
 * password, database, other parameters).
 */
export interface HostList {
  hosts: HostPort[];
  readWrite: boolean;
  url: string;
  /** The one-server URL for one of the hosts. */
  urlOf(host: HostPort): string;
}

const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^@/?#]*@)?([^/?#]*)(.*)$/;
const HOST_PORT = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;
const TARGET_SESSION_ATTRS = ['any', 'read-write'];

/**
 * Reads the servers of a PostgreSQL URL. Null when it names one server and asks for no
 * session kind (the URL is then used as it is). Throws, with the reason, on an empty or
 * malformed host, a port outside 1-65535, or a target_session_attrs other than any or
 * read-write.
 */
export function parseHostList(url: string): HostList | null {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('must start with postgres:// or postgresql://');
  const [, scheme, userInfo = '', hostPart = '', rest = ''] = parts;
  const query = rest.indexOf('?');
  const params = new URLSearchParams(query === -1 ? '' : rest.slice(query + 1));
  const attrs = params.get('target_session_attrs');
  if (attrs !== null && !TARGET_SESSION_ATTRS.includes(attrs)) {
    throw new Error(`target_session_attrs must be any or read-write, not ${attrs}`);
  }
  if (!hostPart.includes(',') && attrs === null) return null;
  const hosts = hostPart.split(',').map((item) => {
    const match = HOST_PORT.exec(item);
    if (!match) throw new Error(`host "${item}" must be host or host:port`);
    const port = match[2] === undefined ? 5432 : Number(match[2]);
    if (port < 1 || port > 65535) throw new Error(`port ${port} of host ${match[1]} must be between 1 and 65535`);
    return { host: match[1]!.replace(/^\[(.+)\]$/, '$1'), port };
  });
  params.delete('target_session_attrs');
  const path = query === -1 ? rest : rest.slice(0, query);
  const search = params.toString();
  const urlOf = (one: HostPort) =>
    `${scheme}${userInfo}${one.host.includes(':') ? `[${one.host}]` : one.host}:${one.port}${path}${search ? `?${search}` : ''}`;
  return { hosts, readWrite: attrs === 'read-write', url: urlOf(hosts[0]!), urlOf };
}

/**
 * A URL with its password taken out, and the password (decoded; empty when there is none),
 * without parsing it as a WHATWG URL (which refuses several hosts).
 */
export function splitPassword(url: string): { url: string; password: string } {
  const match = /^(postgres(?:ql)?:\/\/)([^:@/?#]*):([^@/?#]*)@(.*)$/.exec(url);
  if (!match) return { url, password: '' };
  return { url: `${match[1]}${match[2]}@${match[4]}`, password: decodeURIComponent(match[3]!) };
}

/** A pg Client for one short connection: to the server the URL's hosts select when it names several. */
export function singleClient(config: pg.ClientConfig & { connectionString: string }): pg.Client {
  const list = parseHostList(config.connectionString);
  return list ? new (multiHostClient(list))({ ...config, connectionString: list.url }) : new pg.Client(config);
}

/** True when the server a client is connected to takes writes: not a standby, not read-only by default. */
async function acceptsWrites(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ writable: boolean }>(
    "select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as writable",
  );
  return rows[0]?.writable === true;
}

/**
 * The first server of the list that answers (and, for read-write, takes writes), checked
 * with a short-lived connection of its own, starting from `first` (the one that did last
 * time) and going round the list. Each check gets an equal share of the connect timeout, at
 * least 1 s, so a host that vanished without refusing (powered off) leaves time for the
 * others. The reasons the others were passed over are kept in the error when none will do.
 */
async function chooseHost(list: HostList, config: pg.ClientConfig, first: number): Promise<number> {
  const reasons: string[] = [];
  const timeout = config.connectionTimeoutMillis ? Math.max(1000, Math.floor(config.connectionTimeoutMillis / list.hosts.length)) : 0;
  for (let n = 0; n < list.hosts.length; n++) {
    const index = (first + n) % list.hosts.length;
    const candidate = list.hosts[index]!;
    const probe = new pg.Client({
      ...config,
      connectionString: list.urlOf(candidate),
      ...(timeout && { connectionTimeoutMillis: timeout, query_timeout: timeout }),
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
      if (!list.readWrite || (await acceptsWrites(probe))) return index;
      reasons.push(`${candidate.host}:${candidate.port} is read-only`);
    } catch (error) {
      reasons.push(`${candidate.host}:${candidate.port}: ${(error as Error).message}`);
    } finally {
      await probe.end().catch(() => {});
    }
  }
  // ECONNREFUSED: the caller reports it as "database unavailable" (503), and a retry may find a new primary.
  return Promise.reject(
    Object.assign(new Error(`no server of ${list.hosts.length} ${list.readWrite ? 'takes writes' : 'answers'}: ${reasons.join('; ')}`), {
      code: 'ECONNREFUSED',
    }),
  );
}

/** What pg's Client.connect calls back with. */
type ConnectCallback = ((err: Error) => void) | ((err: null, client: pg.Client) => void);

/**
 * A pg Client class for a pool over several servers, as libpq does it: each new connection
 * tries the servers and keeps the first that answers and (with read-write) is the primary,
 * starting with the one the pool's last connection went to (then in the list's order). So
 * after a standby is promoted, the pool's next connection finds it by itself, and later ones
 * go to it first rather than waiting on the lost host each time.
 * The check runs on a connection of its own before the pool's connection is opened (the
 * pg client cannot connect twice), which costs one extra connection per pool connection opened.
 */
export function multiHostClient(list: HostList): typeof pg.Client {
  /** The host the last connection was opened to, checked first by the next. */
  let last = 0;
  return class MultiHostClient extends pg.Client {
    #config: pg.ClientConfig;

    constructor(config: pg.ClientConfig) {
      super(config);
      this.#config = config;
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
      const connected = chooseHost(list, this.#config, last).then((index) => {
        last = index;
        const chosen = list.hosts[index]!;
        const self = this as unknown as {
          host: string;
          port: number;
          connectionParameters: { host: string; port: number };
          connection: { stream: { destroyed: boolean } };
        };
        // The pool's connect timeout destroys the socket not yet opened: too late to open it now.
        if (self.connection.stream.destroyed) throw new Error('Connection terminated due to connection timeout');
        self.host = chosen.host;
        self.port = chosen.port;
        self.connectionParameters.host = chosen.host;
        self.connectionParameters.port = chosen.port;
        return super.connect();
      });
      if (!callback) return connected;
      const done = callback as (err: Error | null, client?: pg.Client) => void;
      connected.then(
        (client) => done(null, client),
        (error: Error) => done(error),
      );
    }
  };
}

/** read_only_sql_transaction: a write sent to a server that no longer takes writes. */
const READ_ONLY = '25006';

/**
 * Makes a pooled client that meets a read-only server (a primary turned standby under it)
 * leave the pool when released, so the next connection looks for the primary again.
 * `result` is what one query returned; its failure is still the caller's to handle.
 */
export function discardOnReadOnly(client: pg.PoolClient, result: unknown): void {
  if (!result || typeof (result as Promise<unknown>).then !== 'function') return;
  (result as Promise<unknown>).then(undefined, (error: { code?: string }) => {
    if (error?.code !== READ_ONLY) return;
    // The pool sets release() afresh on each checkout: this one hands it an error, which removes the client.
    const release = client.release;
    client.release = ((err?: Error | boolean) => release(err || new Error('server is read-only'))) as typeof client.release;
  });
}
