/** What the simulation specs share: the hall open in the page, and the API's simulation jobs. */
import { expect, type Page } from "@playwright/test";

/** The project and hall the page shows (from its /projects/:id/halls/:hallId path). */
export function ids(page: Page): { projectId: number; hallId: number } {
  const m = /\/projects\/(\d+)\/halls\/(\d+)/.exec(new URL(page.url()).pathname);
  expect(m, page.url()).toBeTruthy();
  return { projectId: Number(m![1]), hallId: Number(m![2]) };
}

/** The project's simulation jobs, newest first, typed as the spec reads them. */
export async function simulationJobs<Job>(page: Page, projectId: number): Promise<Job[]> {
  const res = await page.request.get(`/api/v1/projects/${projectId}/simulations?limit=100`);
  expect(res.status()).toBe(200);
  return (await res.json()).items as Job[];
}

export async function simulationJob<Job>(page: Page, id: number): Promise<Job> {
  const res = await page.request.get(`/api/v1/simulations/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Job;
}
