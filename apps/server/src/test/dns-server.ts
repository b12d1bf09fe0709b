import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server on 127.0.0.1 (dns2, over UDP) answering TXT questions from `records`,
 * which a test changes as it goes: what the console's resolver asks travels as DNS packets.
 * A name it does not hold answers NXDOMAIN, as an authoritative server would.
 */
export async function startDnsServer(): Promise<{ address: string; records: Map<string, string[]>; close: () => Promise<void> }> {
  const records = new Map<string, string[]>();
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? '';
      const texts = question?.type === Packet.TYPE.TXT ? records.get(name) : undefined;
      // NXDOMAIN (3): the name does not exist.
      if (!records.has(name)) response.header.rcode = 3;
      // The packet encodes plain records; the type asks for a method it never calls.
      for (const data of texts ?? [])
        response.answers.push({
          name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data,
        } as unknown as (typeof response.answers)[number]);
      send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (listening as { udp: { port: number } }).udp.port;
  return { address: `127.0.0.1:${port}`, records, close: () => server.close() };
}
