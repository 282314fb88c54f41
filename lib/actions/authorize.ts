import { cookies } from "next/headers";

export interface Actor {
  name: string;
}

/**
 * Who is acting. Loopscope has no accounts yet: a person names themselves once
 * (cookie `loopscope_user`) and actions record that name. Server actions are
 * reachable only from this origin (Next.js checks the Origin header), so this
 * is the single place to add a real session and role check.
 */
export async function authorizeAction(): Promise<Actor> {
  const jar = await cookies();
  const name = jar.get("loopscope_user")?.value?.trim();
  return { name: name && name.length <= 80 ? name : "anonymous" };
}
