import { test as setup } from "@playwright/test";
import { e2eUser, signInThroughPage, storageStateFor, type E2eRole } from "./support";

/** Signs each e2e user in once and keeps the browser state for the specs (admin is the default). */
for (const role of ["admin", "operator", "viewer"] as E2eRole[]) {
  setup(`sign in as ${role}`, async ({ page, baseURL }) => {
    const { name, password } = e2eUser(role);
    await signInThroughPage(page, name, password);
    await page.context().storageState({ path: storageStateFor(new URL(baseURL!).port, role) });
  });
}
