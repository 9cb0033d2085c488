import { debugHandle } from "../state/testHook";
import type { LayoutSync } from "./sync";

let active: LayoutSync | null = null;
export function setActiveSync(s: LayoutSync | null): void {
  active = s;
  debugHandle().sync = s;
}
export function activeSync(): LayoutSync | null {
  return active;
}
