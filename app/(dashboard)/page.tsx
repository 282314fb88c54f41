import RunsPage from "./runs/page";

export { metadata } from "./runs/page";
export const dynamic = "force-dynamic";

/** The home page is the run history. */
export default RunsPage;
