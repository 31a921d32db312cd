/** The five actions of a resources controller. */
export type ActionName = 'index' | 'show' | 'create' | 'update' | 'destroy' | 'related' | 'batch' | 'upload';

/** Limits a callback to some actions (`only`) or all but some (`except`). */
export interface CallbackConditions {
  only?: ActionName | readonly ActionName[];
  except?: ActionName | readonly ActionName[];
}

/** An error matcher for `rescueFrom`: an error class, or an error `code` string. */
export type ErrorMatcher = (abstract new (...args: never[]) => Error) | string;

/** A handler for `rescueFrom`; `this` is the controller. */
export type RescueHandler<C> = (this: C, error: Error) => unknown;

type Declaration =
  | { kind: 'before'; name: string; conditions: CallbackConditions; authenticates: boolean }
  | { kind: 'skip'; name: string; conditions: CallbackConditions };

interface ClassDeclarations {
  callbacks: Declaration[];
  rescues: { matcher: ErrorMatcher; handler: RescueHandler<unknown> }[];
}

const declarations = new WeakMap<object, ClassDeclarations>();

function own(cls: object): ClassDeclarations {
  let entry = declarations.get(cls);
  if (!entry) {
    entry = { callbacks: [], rescues: [] };
    declarations.set(cls, entry);
  }
  return entry;
}

function lineage(cls: object): object[] {
  const chain: object[] = [];
  for (let current: object | null = cls; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) chain.unshift(current);
  return chain;
}

const list = (value: ActionName | readonly ActionName[] | undefined): readonly ActionName[] | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? [value] : value;

function applies(conditions: CallbackConditions, action: ActionName): boolean {
  const only = list(conditions.only);
  const except = list(conditions.except);
  return (only === undefined || only.includes(action)) && !(except?.includes(action) ?? false);
}

/**
 * Declares a before-action on a controller class (appended to what it inherits).
 * `authenticates` marks the controller's authentication step (`setupAuthentication`), around
 * which a mount's gate runs (see `RequestGate`).
 */
export function declareBeforeAction(cls: object, name: string, conditions: CallbackConditions, authenticates = false): void {
  own(cls).callbacks.push({ kind: 'before', name, conditions, authenticates });
}

/** Declares `skipBeforeAction` on a controller class: the callback no longer runs for the actions named. */
export function declareSkipBeforeAction(cls: object, name: string, conditions: CallbackConditions): void {
  own(cls).callbacks.push({ kind: 'skip', name, conditions });
}

/** Declares a `rescueFrom` handler on a controller class. */
export function declareRescue(cls: object, matcher: ErrorMatcher, handler: RescueHandler<unknown>): void {
  own(cls).rescues.push({ matcher, handler });
}

/** A declared before-action, as it stands for one action. */
export interface BeforeActionEntry {
  readonly name: string;
  /** Whether it is the controller's authentication step. */
  readonly authenticates: boolean;
  /** Whether it runs for the action (its `only` / `except` apply and no `skipBeforeAction` removed it). */
  readonly runs: boolean;
}

/**
 * Every before-action declared for a controller class, in order, walking the class chain from
 * the root (each class's `beforeAction` appends, its `skipBeforeAction` removes), each with
 * whether it runs for `action`.
 */
export function beforeActionEntries(cls: object, action: ActionName): BeforeActionEntry[] {
  const chain: { name: string; conditions: CallbackConditions; authenticates: boolean; skips: CallbackConditions[] }[] = [];
  for (const current of lineage(cls)) {
    for (const declaration of declarations.get(current)?.callbacks ?? []) {
      if (declaration.kind === 'before') {
        chain.push({ name: declaration.name, conditions: declaration.conditions, authenticates: declaration.authenticates, skips: [] });
        continue;
      }
      for (const entry of chain) if (entry.name === declaration.name) entry.skips.push(declaration.conditions);
    }
  }
  return chain.map(({ name, authenticates, conditions, skips }) => ({ name, authenticates, runs: applies(conditions, action) && !skips.some((skip) => applies(skip, action)) }));
}

/** The before-action method names that run for an action (see `beforeActionEntries`). */
export function beforeActionsFor(cls: object, action: ActionName): string[] {
  return beforeActionEntries(cls, action)
    .filter(({ runs }) => runs)
    .map(({ name }) => name);
}

function matches(matcher: ErrorMatcher, error: Error): boolean {
  if (typeof matcher === 'string') return (error as { code?: unknown }).code === matcher;
  return error instanceof matcher;
}

/** The `rescueFrom` handler for an error: the subclass's first, the latest declared first (as Rails does). */
export function rescueHandlerFor(cls: object, error: Error): RescueHandler<unknown> | undefined {
  for (const current of lineage(cls).reverse()) {
    const rescues = declarations.get(current)?.rescues ?? [];
    for (let i = rescues.length - 1; i >= 0; i -= 1) {
      if (matches(rescues[i]!.matcher, error)) return rescues[i]!.handler;
    }
  }
  return undefined;
}

/** Whether a controller class or one it extends declares a `rescueFrom` handler (it may answer any status). */
export function declaresRescues(cls: object): boolean {
  return lineage(cls).some((current) => (declarations.get(current)?.rescues.length ?? 0) > 0);
}
