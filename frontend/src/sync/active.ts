import type { LayoutSync } from "./sync";

let active: LayoutSync | null = null;
export function setActiveSync(s: LayoutSync | null): void {
  active = s;
  if (typeof window !== "undefined" && window.__loopline) window.__loopline.sync = s;
}
export function activeSync(): LayoutSync | null {
  return active;
}
