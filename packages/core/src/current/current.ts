import { AsyncLocalStorage } from 'node:async_hooks';

interface CurrentStore {
  user: unknown;
}

const storage = new AsyncLocalStorage<CurrentStore>();

/**
 * Request-scoped attributes (`Panel::Current`): `Current.user` is the user the policies see.
 * Each request runs inside `Current.run()`, so concurrent requests never see each other's user.
 */
class CurrentAttributes {
  /** Runs `work` with a fresh set of attributes. */
  run<T>(work: () => T): T {
    return storage.run({ user: null }, work);
  }

  /** The current user, or null outside a request or when none was established. */
  get user(): unknown {
    return storage.getStore()?.user ?? null;
  }

  set user(user: unknown) {
    const store = storage.getStore();
    if (!store) throw new Error('Current.user can only be assigned while a request is running (inside Current.run).');
    store.user = user;
  }
}

/** The request-scoped attributes of the running request. */
export const Current = new CurrentAttributes();
