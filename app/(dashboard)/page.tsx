import type { ComponentProps } from "react";
import RunsPage from "./runs/page";
import { getSql } from "@/lib/db/client";
import { requirePageUser } from "@/lib/auth/access";
import { listWaitingRuns } from "@/lib/db/decisions";
import { NeedsYouList } from "@/components/needs-you/needs-you-list";

export { metadata } from "./runs/page";
export const dynamic = "force-dynamic";

/** How many waiting runs the home page lists before linking to the rest. */
const NEEDS_YOU_SHOWN = 8;

/** The home page: the runs waiting for a person first, then the run history. */
export default async function HomePage(props: ComponentProps<typeof RunsPage>) {
  await requirePageUser();
  const waiting = await listWaitingRuns(await getSql(), NEEDS_YOU_SHOWN);
  return (
    <>
      <div className="needs-you-page">
        <NeedsYouList runs={waiting.runs} total={waiting.total} now={Date.now()} />
      </div>
      <RunsPage {...props} />
    </>
  );
}
