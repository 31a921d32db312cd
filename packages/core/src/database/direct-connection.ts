import pg from 'pg';

/** An address as PostgreSQL's `inet_client_addr()` writes it: Node's IPv4-mapped IPv6 form without its prefix. */
const plainAddress = (address: string | null | undefined) => (address ?? '').replace(/^::ffff:/, '');

/**
 * Whether PostgreSQL sees this connection as it is: the client address and port the server
 * reports are this socket's own. Behind a pooler (PgBouncer, a cloud proxy) the server sees the
 * pooler's socket, and through NAT another address or port; a Unix socket has neither. Only a
 * connection that passes may send named statements by default.
 */
export async function seenDirectly(client: pg.Client): Promise<boolean> {
  const socket = (client as unknown as { connection?: { stream?: { localAddress?: string; localPort?: number } } }).connection?.stream;
  if (socket?.localPort === undefined) return false;
  const { rows } = await (pg.Client.prototype.query as (text: string) => Promise<pg.QueryResult<{ address: string | null; port: number | null }>>).call(
    client,
    'select host(inet_client_addr()) as address, inet_client_port() as port',
  );
  const seen = rows[0];
  return seen !== undefined && seen.port === socket.localPort && plainAddress(seen.address) === plainAddress(socket.localAddress);
}
