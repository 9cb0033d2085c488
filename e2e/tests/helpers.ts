import type { Page } from "@playwright/test";

export const ARTIFACTS = "artifacts";

/** Share of sampled canvas pixels that differ from the top-left (background) pixel. */
export async function nonBackgroundShare(page: Page, selector = "canvas"): Promise<number> {
  return page.evaluate((sel) => {
    const source = document.querySelector(sel) as HTMLCanvasElement | null;
    if (!source) return 0;
    const copy = document.createElement("canvas");
    copy.width = source.width;
    copy.height = source.height;
    const ctx = copy.getContext("2d");
    if (!ctx) return 0;
    ctx.drawImage(source, 0, 0);
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
    const [r0, g0, b0] = [data[0], data[1], data[2]];
    let differing = 0;
    let sampled = 0;
    for (let i = 0; i < data.length; i += 4 * 97) {
      sampled += 1;
      const d = Math.abs(data[i] - r0) + Math.abs(data[i + 1] - g0) + Math.abs(data[i + 2] - b0);
      if (d > 30) differing += 1;
    }
    return differing / Math.max(1, sampled);
  }, selector);
}
