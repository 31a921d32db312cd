import { createServer, connect, type Server, type Socket } from 'node:net';

/** What the proxy does with traffic: forward it, refuse new connections, or hold every byte. */
export type ProxyMode = 'pass' | 'refuse' | 'stall';

/** A TCP proxy on 127.0.0.1 between an app and its database, that faults on demand. */
export interface TcpFaultProxy {
  /** The port the app connects to. */
  readonly port: number;
  /** `host:port` of the proxy, to put in a database URL. */
  readonly address: string;
  /** The current mode. */
  readonly mode: ProxyMode;
  /** Connections opened through the proxy so far. */
  readonly connectionsOpened: number;
  /** Destroys every open connection on both sides (as a restart or a failover does). */
  cutAll(): void;
  /** Stops listening: new connections are refused (ECONNREFUSED), open ones are cut. */
  refuse(): Promise<void>;
  /** Keeps every connection open but forwards nothing, either way, and accepts new ones without connecting them (a frozen server, a black-holed network); a connection the app closes meanwhile gets no answer to its FIN. */
  stall(): Promise<void>;
  /** Cuts every connection on both sides as soon as the app sends a chunk matching `pattern` (before forwarding it). */
  cutWhenClientSends(pattern: RegExp): void;
  /** Calls `listener` with every chunk the server sends, and the number of the connection it came on (from 1); returns the unsubscribe. */
  onServerData(listener: (chunk: Buffer, connection: number) => void): () => void;
  /** Back to forwarding: listening again, held bytes flushed. */
  heal(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  /** Its place among the connections opened (from 1). */
  number: number;
  client: Socket;
  server: Socket | undefined;
  /** Bytes held while stalled, flushed on heal. */
  held: { toServer: Buffer[]; toClient: Buffer[] };
}

/**
 * Starts a fault-injecting TCP proxy (node:net) from 127.0.0.1:<port> to `target`: the
 * fault-injection suite puts it between the app and PostgreSQL to cut every connection,
 * refuse new ones, and stall traffic, then heals it to check that the app recovers alone.
 */
export async function startTcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  const pairs = new Set<Pair>();
  let mode: ProxyMode = 'pass';
  let cutPattern: RegExp | undefined;
  let opened = 0;
  const serverDataListeners = new Set<(chunk: Buffer, connection: number) => void>();

  const destroyPair = (pair: Pair) => {
    pair.client.destroy();
    pair.server?.destroy();
    pairs.delete(pair);
  };
  const cutAll = () => {
    for (const pair of [...pairs]) destroyPair(pair);
  };

  const connectUpstream = (pair: Pair) => {
    const server = connect(target.port, target.host);
    pair.server = server;
    server.on('data', (chunk: Buffer) => {
      for (const listener of serverDataListeners) listener(chunk, pair.number);
      if (mode === 'stall') pair.held.toClient.push(chunk);
      else pair.client.write(chunk);
    });
    server.on('error', () => destroyPair(pair));
    server.on('close', () => destroyPair(pair));
    for (const chunk of pair.held.toServer.splice(0)) server.write(chunk);
  };

  const onConnection = (client: Socket) => {
    opened += 1;
    const pair: Pair = { number: opened, client, server: undefined, held: { toServer: [], toClient: [] } };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (cutPattern?.test(chunk.toString('latin1'))) {
        cutPattern = undefined;
        cutAll();
        return;
      }
      if (mode === 'stall' || !pair.server) pair.held.toServer.push(chunk);
      else pair.server.write(chunk);
    });
    // The app closing its side (FIN) is passed on, and never answered while stalled: a frozen
    // server's kernel acknowledges the FIN but the server never closes its own side.
    client.on('end', () => {
      if (mode !== 'stall') pair.server?.end();
    });
    client.on('error', () => destroyPair(pair));
    client.on('close', () => destroyPair(pair));
    if (mode !== 'stall') connectUpstream(pair);
  };

  // Half-open: a client's FIN does not end the proxy's side by itself (see `onConnection`).
  const createProxyServer = () => createServer({ allowHalfOpen: true }, onConnection);
  let server: Server = createProxyServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const port = await listen(0);

  return {
    port,
    address: `127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    get connectionsOpened() {
      return opened;
    },
    cutAll,
    async refuse() {
      mode = 'refuse';
      const closed = stopListening();
      cutAll();
      await closed;
    },
    async stall() {
      mode = 'stall';
    },
    cutWhenClientSends(pattern: RegExp) {
      cutPattern = pattern;
    },
    onServerData(listener) {
      serverDataListeners.add(listener);
      return () => void serverDataListeners.delete(listener);
    },
    async heal() {
      const was = mode;
      mode = 'pass';
      if (was === 'refuse') {
        server = createProxyServer();
        await listen(port);
      }
      for (const pair of pairs) {
        if (!pair.server) connectUpstream(pair);
        else for (const chunk of pair.held.toServer.splice(0)) pair.server.write(chunk);
        for (const chunk of pair.held.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    async close() {
      cutPattern = undefined;
      const closed = stopListening();
      cutAll();
      await closed;
    },
  };
}
