import { cookies } from "next/headers";
import { USER_COOKIE, readUserName } from "./decision-input";

export interface Actor {
  name: string;
}

/**
 * Who is acting. Loopscope has no accounts yet: a person names themselves once
 * (cookie `loopscope_user`, read as the decision form reads it) and actions
 * record that name. Server actions are reachable only from this origin
 * (Next.js checks the Origin header), so this is the single place to add a
 * real session and role check.
 */
export async function authorizeAction(): Promise<Actor> {
  return { name: readUserName((await cookies()).get(USER_COOKIE)?.value) };
}
