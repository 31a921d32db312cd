/** The five actions of a resources controller. */
export type ActionName = 'index' | 'show' | 'create' | 'update' | 'destroy' | 'related';

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
  | { kind: 'before'; name: string; conditions: CallbackConditions }
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

/** Declares a before-action on a controller class (appended to what it inherits). */
export function declareBeforeAction(cls: object, name: string, conditions: CallbackConditions): void {
  own(cls).callbacks.push({ kind: 'before', name, conditions });
}

/** Declares `skipBeforeAction` on a controller class: the callback no longer runs for the actions named. */
export function declareSkipBeforeAction(cls: object, name: string, conditions: CallbackConditions): void {
  own(cls).callbacks.push({ kind: 'skip', name, conditions });
}

/** Declares a `rescueFrom` handler on a controller class. */
export function declareRescue(cls: object, matcher: ErrorMatcher, handler: RescueHandler<unknown>): void {
  own(cls).rescues.push({ matcher, handler });
}

/**
 * The before-action method names that run for an action, walking the class chain from the
 * root: each class's `beforeAction` appends, its `skipBeforeAction` removes.
 */
export function beforeActionsFor(cls: object, action: ActionName): string[] {
  const chain: { name: string; conditions: CallbackConditions; skips: CallbackConditions[] }[] = [];
  for (const current of lineage(cls)) {
    for (const declaration of declarations.get(current)?.callbacks ?? []) {
      if (declaration.kind === 'before') {
        chain.push({ name: declaration.name, conditions: declaration.conditions, skips: [] });
        continue;
      }
      for (const entry of chain) if (entry.name === declaration.name) entry.skips.push(declaration.conditions);
    }
  }
  return chain
    .filter(({ conditions, skips }) => applies(conditions, action) && !skips.some((skip) => applies(skip, action)))
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
