/**
 * The pointer tool while a simulation's racks and failures are picked on the floor
 * (`state/floorPick.ts`): a click on a rack adds it to the set being picked or takes it out, or fails
 * the switch at the height clicked. A press that travels is the camera's (orbit, pan), never a pick.
 */
import { pickRack } from "../state/floorPick";
import type { Vec2 } from "../model/geometry";
import type { Target, Tool } from "./tools";

const CLICK_PX = 5;

export function createPickTool(): Tool {
  let pressed: { client: Vec2; target: Target; heightMm: number } | null = null;
  return {
    down(e) {
      pressed = { client: e.client, target: e.target, heightMm: e.heightMm ?? 0 };
      return "ignore";
    },
    move() {},
    up(e) {
      const p = pressed;
      pressed = null;
      if (!p || p.target.kind !== "rack") return;
      if (Math.hypot(e.client.x - p.client.x, e.client.y - p.client.y) > CLICK_PX) return;
      pickRack(p.target.id, p.heightMm);
    },
    cancel() {
      pressed = null;
    },
  };
}

export const PICK_TOOL = createPickTool();
