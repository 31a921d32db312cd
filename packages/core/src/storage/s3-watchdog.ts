import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { StorageError } from '../errors/panel-errors.js';

/** Where a download's response keeps its watchdog for its body. */
export const WATCHDOG = Symbol('panel.s3Watchdog');

/** Aborts a request when `millis` pass without `touch()`: a store that stopped answering. */
export class Watchdog {
  readonly #controller = new AbortController();
  readonly #millis: number;
  #timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(millis: number) {
    this.#millis = millis;
    this.touch();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Progress: the clock starts again. */
  touch(): undefined {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.fired = true;
      this.#controller.abort();
    }, this.#millis);
    return undefined;
  }

  /** Waiting on the caller, not on the store (a download's reader that takes its time): no clock. */
  pause(): void {
    clearTimeout(this.#timer);
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * A download's body as a Node stream whose watchdog runs only while a read waits on the store:
 * a reader that takes its time (a slow client) is never cut, a store that stops sending is,
 * within the watchdog's bound, with `StorageError` (reason `unavailable`).
 */
export function timedBody(body: NodeReadableStream<Uint8Array>, watch: Watchdog, what: string): Readable {
  const reader = body.getReader();
  watch.pause();
  return new Readable({
    read() {
      watch.touch();
      reader.read().then(
        ({ done, value }) => {
          watch.pause();
          if (done) {
            watch.stop();
            this.push(null);
          } else this.push(value);
        },
        (error: unknown) => {
          watch.stop();
          this.destroy(new StorageError(`${what} failed: ${watch.fired ? 'the store stopped sending (timeoutMillis)' : (error as Error).message}`, { cause: error, reason: 'unavailable' }));
        },
      );
    },
    destroy(error, done) {
      watch.stop();
      reader.cancel().catch(() => undefined);
      done(error);
    },
  });
}
