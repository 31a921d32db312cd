/** A user as the demo's policies see it (what the base controller's `currentUser()` returns). */
export interface DemoUser {
  readonly id: number;
  readonly name: string;
  readonly admin: boolean;
}

/** Whether the user is an admin; false for no user. */
export const isAdmin = (user: DemoUser | null): boolean => user?.admin === true;
