/**
 * Queue occupancy on the hall: the heat map (state/heatMap.ts) of a packet-mode run's queues instead
 * of its link utilisation. Each cable is as hot as its fuller direction, as a share of the run's
 * largest backlog anywhere (packet.ts `queueOccupancy`); racks by their ToRs, as for utilisation.
 */
import { editor } from "../state/editor";
import { buildHeat, showHeat } from "../state/heatMap";
import { clearDiff } from "../state/planDiff";
import { networkOfPlan } from "./api";
import { showPlanCables } from "./floor";
import { torsByRack } from "./hallRacks";
import { queueOccupancy, type PacketResult } from "./packet";

export async function openQueueMap(jobId: number, planId: number, result: PacketResult): Promise<void> {
  const { links, peakBytes } = queueOccupancy(result);
  if (peakBytes === 0) throw new Error("no queue held a packet waiting in this run");
  const [network] = await Promise.all([networkOfPlan(planId), showPlanCables(planId)]);
  const { tors, names } = torsByRack(network.nodes, editor.records);
  clearDiff();
  showHeat({
    ...buildHeat(jobId, planId, links, result.simulated_time_s, tors, names),
    metric: { queuePeakBytes: peakBytes },
  });
}
