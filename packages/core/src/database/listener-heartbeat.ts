import type pg from 'pg';

/**
 * The listening connection's heartbeat, in milliseconds: `select 1` after this long, to be
 * answered within as long again. A connection that died without closing (a frozen server, a
 * dropped route: TCP keepalive takes minutes to say so) is noticed within twice this, 2 seconds.
 */
export const DEFAULT_HEARTBEAT_MILLIS = 1_000;

/**
 * Sends `select 1` on `client` every `millis`; when one gets no answer within `millis`, calls
 * `dead` (once) and beats no more. The wait yields to pending input once before it gives up, so
 * that an answer that arrived while the process was busy is not taken for silence. Returns the
 * function that stops the heartbeat.
 *
 * @example
 * const stop = startHeartbeat(client, 1000, () => client.end());
 */
export function startHeartbeat(client: pg.Client, millis: number, dead: () => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = () => {
    timer = setTimeout(() => {
      if (stopped) return;
      let answered = false;
      const giveUp = () => {
        if (answered || stopped) return;
        stopped = true;
        dead();
      };
      const overdue = setTimeout(() => setImmediate(giveUp), millis);
      overdue.unref();
      const settle = () => {
        answered = true;
        clearTimeout(overdue);
      };
      client.query('select 1').then(
        () => {
          settle();
          if (!stopped) beat();
        },
        // A failed heartbeat is the connection's own error or end, which its listeners report.
        settle,
      );
    }, millis);
    timer.unref();
  };
  beat();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
