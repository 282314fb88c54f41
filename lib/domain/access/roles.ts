/**
 * Who may do what. Three roles, each including the one before it:
 * a viewer reads everything; an operator also decides on halted runs, runs
 * "what if" and creates share links; an admin also manages users, keys,
 * detector settings and every share link.
 */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | "read"
  | "decide"
  | "what_if"
  | "share"
  | "manage_users"
  | "manage_keys"
  | "manage_settings"
  | "manage_all_shares";

const LEAST_ROLE: Record<Permission, Role> = {
  read: "viewer",
  decide: "operator",
  what_if: "operator",
  share: "operator",
  manage_users: "admin",
  manage_keys: "admin",
  manage_settings: "admin",
  manage_all_shares: "admin",
};

/** True when `role` grants `permission`: `can("operator", "decide") === true`. */
export function can(role: Role, permission: Permission): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(LEAST_ROLE[permission]);
}

/** The least role that grants a permission (for messages: "needs operator"). */
export function roleNeededFor(permission: Permission): Role {
  return LEAST_ROLE[permission];
}

/** A role from user input, or null: `parseRole("Admin") === "admin"`. */
export function parseRole(value: unknown): Role | null {
  if (typeof value !== "string") return null;
  const v = value.trim().toLowerCase();
  return (ROLES as readonly string[]).includes(v) ? (v as Role) : null;
}
