/**
 * Writes that run beside a measured read load: allocations (each its own Idempotency-Key) and
 * usage batches, each client sending its next request once the last is answered, through
 * `url`. It counts what was answered 2xx and what was not, so a read row can say which writes
 * ran beside it.
 */
export interface WriteClients {
  allocations: { clients: number; pick(n: number): { token: string; from: string; to: string } };
  batches: { clients: number; bearer: string; events: number; orgs: string[]; agent: string };
}

export interface WriteLoad {
  /** Answered 2xx so far: allocations, usage batches and their events; and every other answer or failure. */
  counts(): { allocations: number; batches: number; events: number; failed: number };
  stop(): Promise<void>;
}

export function startWrites(url: string, runId: string, spec: WriteClients): WriteLoad {
  const counts = { allocations: 0, batches: 0, events: 0, failed: 0 };
  let stopped = false;
  let n = 0;
  const post = async (path: string, headers: Record<string, string>, body: unknown) => {
    try {
      const answer = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      await answer.arrayBuffer();
      return answer.ok;
    } catch {
      return false;
    }
  };
  const allocation = async () => {
    while (!stopped) {
      const k = n++;
      const { token, from, to } = spec.allocations.pick(k);
      const ok = await post(
        '/api/credits/allocations',
        { authorization: `Bearer ${token}`, 'idempotency-key': `beside-${runId}-${k}` },
        { from_org_id: from, to_org_id: to, amount: '1.00', notes: `beside reads ${k}` },
      );
      if (ok) counts.allocations++;
      else counts.failed++;
    }
  };
  const batch = async () => {
    const { bearer, events, orgs, agent } = spec.batches;
    while (!stopped) {
      const k = n++;
      const at = new Date().toISOString();
      const ok = await post(
        '/api/v1/usage-events',
        { authorization: `Bearer ${bearer}` },
        {
          events: Array.from({ length: events }, (_, i) => ({
            id: `beside-${runId}-${k}-${i}`,
            organization_id: orgs[(k + i) % orgs.length]!,
            agent,
            units: '1',
            occurred_at: at,
          })),
        },
      );
      if (ok) {
        counts.batches++;
        counts.events += events;
      } else counts.failed++;
    }
  };
  const clients = [...Array.from({ length: spec.allocations.clients }, allocation), ...Array.from({ length: spec.batches.clients }, batch)];
  return {
    counts: () => ({ ...counts }),
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}
