import type { Socket } from 'node:net';

/** The sockets a proxy holds, so that it can drop them all at once (a cut, a close). */
export function socketSet() {
  const sockets = new Set<Socket>();
  return {
    track(socket: Socket) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    },
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Joins a client to its upstream both ways; either side closing ends the other. */
export function splice(client: Socket, upstream: Socket) {
  client.pipe(upstream).pipe(client);
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}
